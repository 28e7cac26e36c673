import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterEach, test } from 'node:test';
import type { App, BlockAction } from '@slack/bolt';
import { pino } from 'pino';
import type { DraftOutcome } from '../../../src/core/batch/outcomes.js';
import { modalMetadata } from '../../../src/core/slack/controls/modal-metadata.js';
import { explainRefusal } from '../../../src/core/slack/outcome-text.js';
import type { BatchActions } from '../../../src/queue/actions/batch-actions.js';
import { RedisUnavailableError } from '../../../src/redis/redis-connection.js';
import { createModalSeal } from '../../../src/slack/access/modal-seal.js';
import { submittedViewsInMemory } from '../../../src/slack/access/submitted-views.js';
import { TRY_AGAIN_TEXT } from '../../../src/slack/access/try-again-middleware.js';
import { registerTextModal } from '../../../src/slack/listeners/text-modal-view.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack/index.js';
import { socketAppFor, webClientFor } from '../../support/fake-slack/slack-clients.js';
import { makeRecord } from '../../support/make-record.js';
import { waitFor } from '../../support/wait.js';

const CHANNEL = 'C0RELAY01';
const ALICE = 'U0ALICE01';
const CALLBACK = 'o7.test-text';
const plain = (text: string) => ({ type: 'plain_text' as const, text });
const seal = createModalSeal(randomBytes(32));

let fake: FakeSlack | undefined;
let app: App | undefined;
afterEach(async () => {
  await app?.stop();
  await fake?.close();
});

/**
 * A real Bolt app with one text modal listener on `actions`, and Alice's form of it open on
 * batch `record` (from a button the test app answers); the listener saves with `save`.
 */
async function openForm(
  actions: BatchActions,
  save: (
    key: string,
    input: { revision: string; questionId: string; text: string; user: string },
  ) => DraftOutcome,
) {
  fake = await startFakeSlack();
  const slack = fake;
  const started = socketAppFor(slack);
  app = started;
  registerTextModal(
    started,
    { actions, log: pino({ level: 'silent' }), seal, submittedViews: submittedViewsInMemory() },
    {
      callbackId: CALLBACK,
      component: 'test',
      read: (values) => values.text?.value?.value ?? '',
      fits: (question) => (question.type === 'free-write' ? {} : undefined),
      save: async (_actions, key, input) => {
        const outcome = save(key, input);
        return outcome.kind === 'saved' ? undefined : explainRefusal(outcome);
      },
    },
  );
  started.action<BlockAction>('open', async ({ ack, body, client }) => {
    await ack();
    await client.views.open({
      trigger_id: body.trigger_id,
      view: seal.seal({
        type: 'modal',
        callback_id: CALLBACK,
        title: plain('Answer'),
        submit: plain('Save'),
        private_metadata: modalMetadata(
          { key: record.key, revision: 'abcd1234', questionId: 'notes' },
          0,
        ),
        blocks: [
          {
            type: 'input',
            block_id: 'text',
            label: plain('Your answer'),
            element: { type: 'plain_text_input', action_id: 'value' },
          },
        ],
      }),
    });
  });
  await started.start();
  const posted = await webClientFor(slack).chat.postMessage({
    channel: CHANNEL,
    text: 'batch',
    blocks: [
      {
        type: 'actions',
        block_id: 'b',
        elements: [{ type: 'button', action_id: 'open', text: plain('Write') }],
      },
    ],
  });
  await slack.clickButton({
    channel: CHANNEL,
    ts: String(posted.ts),
    actionId: 'open',
    user: ALICE,
  });
  const modal = await waitFor(() => slack.views(ALICE)[0], 'the modal');
  return { slack, viewId: String(modal.id) };
}

const record = makeRecord('/runs/run-a', 1, {
  fingerprint: 'abcd1234ef',
  presentation: { channel: CHANNEL, ts: '1700000000.000100', replies: [] },
});
const batch = { seq: 1, questions: [{ id: 'notes', type: 'free-write', prompt: 'Notes?' }] };

test('text modal save refused after ack: the person is told with an ephemeral, not only the log', async () => {
  const saved: unknown[] = [];
  // open at the check before ack(), answered by someone else by the time the text is saved
  const actions = { lookup: async () => ({ record, batch }) } as unknown as BatchActions;
  const { slack, viewId } = await openForm(actions, (key, input): DraftOutcome => {
    saved.push({ key, ...input });
    return { kind: 'closed', status: 'answered' };
  });
  const result = await slack.submitView({
    viewId,
    user: ALICE,
    values: { text: { value: 'late text' } },
  });
  assert.equal(result.acked, true);
  const notice = await waitFor(() => slack.ephemerals(ALICE)[0], 'the notice');
  assert.equal(notice.channel, CHANNEL);
  assert.equal(notice.text, 'This batch is already answered; nothing was changed.');
  assert.deepEqual(saved, [
    { key: record.key, revision: 'abcd1234', questionId: 'notes', text: 'late text', user: ALICE },
  ]);
});

test('a batch the shared store cannot look up before the ack: the form is answered "try again" under its input and keeps the text', async () => {
  const actions = {
    lookup: async () => {
      throw new RedisUnavailableError('reading a batch', '127.0.0.1:6379', 'not connected');
    },
  } as unknown as BatchActions;
  const { slack, viewId } = await openForm(actions, () => assert.fail('nothing is saved'));
  const result = await slack.submitView({
    viewId,
    user: ALICE,
    values: { text: { value: 'kept text' } },
  });
  assert.equal(result.acked, true, "answered within Slack's 3 s");
  const [form] = slack.views(ALICE);
  assert.ok(form);
  assert.equal(form.id, viewId, 'the form stays open');
  assert.deepEqual(form.errors, { text: TRY_AGAIN_TEXT });
  const values = (form.state as { values: Record<string, Record<string, unknown>> }).values;
  assert.deepEqual(values.text?.value, { type: 'plain_text_input', value: 'kept text' });
  assert.deepEqual(slack.failures, []);
});
