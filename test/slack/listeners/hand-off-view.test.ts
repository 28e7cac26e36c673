import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import type { HandOffRefusal } from '../../../src/core/batch/hand-off-refusal.js';
import type { DraftOutcome } from '../../../src/core/batch/outcomes.js';
import { BATCH_BUTTONS, HAND_OFF_INPUTS } from '../../../src/core/slack/controls/ids.js';
import { explainHandOffRefusal, explainRefusal } from '../../../src/core/slack/outcome-text.js';
import { RedisUnavailableError } from '../../../src/redis/redis-connection.js';
import { TRY_AGAIN_TEXT } from '../../../src/slack/access/try-again-middleware.js';
import { ALICE, BOB, CHANNEL } from '../../support/relay-harness.js';
import { waitFor } from '../../support/wait.js';
import {
  type ListenerApp,
  type ListenerAppOptions,
  REVISION,
  startListenerApp,
} from './listener-app.js';

const CAROL = 'U0CAROL01';
const BOT = 'U0HELPER1';
const GONE = 'U0GONE001';

let running: ListenerApp | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** The listeners started, Alice's hand-off form of the batch open, and the hand-offs recorded. */
async function openHandOffForm(options: ListenerAppOptions = {}) {
  const handOffs: unknown[] = [];
  running = await startListenerApp({
    ...options,
    actions: {
      handOff: async (key, input): Promise<DraftOutcome> => {
        handOffs.push({ key, ...input });
        return { kind: 'saved', record: (running as ListenerApp).record };
      },
      ...options.actions,
    },
  });
  const app = running;
  app.slack.addUser({ id: CAROL, name: 'carol' });
  app.slack.addUser({ id: BOT, name: 'helper', isBot: true });
  app.slack.addUser({ id: GONE, name: 'gone', deleted: true });
  await app.slack.clickButton({
    channel: CHANNEL,
    ts: app.ts,
    actionId: BATCH_BUTTONS.handOff,
    user: ALICE,
  });
  const form = await waitFor(() => app.slack.views(ALICE)[0], 'the hand-off form');
  const viewId = String(form.id);
  /** Alice picks `to` (and writes `note`) and submits; gives what the form shows under its picker. */
  const submit = async (to: string, note?: string) => {
    const values: Record<string, Record<string, unknown>> = {
      [HAND_OFF_INPUTS.user.blockId]: { [HAND_OFF_INPUTS.user.actionId]: to },
    };
    if (note) values[HAND_OFF_INPUTS.note.blockId] = { [HAND_OFF_INPUTS.note.actionId]: note };
    const result = await app.slack.submitView({ viewId, user: ALICE, values });
    assert.equal(result.acked, true, "answered within Slack's 3 s");
    return app.slack.views(ALICE).find((v) => v.id === viewId)?.errors?.[
      HAND_OFF_INPUTS.user.blockId
    ];
  };
  return { app, submit, handOffs };
}

const refused = (refusal: HandOffRefusal) => explainHandOffRefusal(refusal);

describe('the hand-off form', () => {
  test('a teammate picked with a note is handed the batch, and the form closes', async () => {
    const { app, submit, handOffs } = await openHandOffForm();
    assert.equal(await submit(BOB, '  over to you  '), undefined);
    assert.deepEqual(app.slack.views(ALICE), [], 'the form is closed');
    await waitFor(() => handOffs[0], 'the hand-off');
    assert.deepEqual(handOffs, [
      { key: app.record.key, revision: REVISION, from: ALICE, to: BOB, note: 'over to you' },
    ]);
  });

  test('oneself, a bot and a deactivated account are refused under the picker, then a person is handed it', async () => {
    const { submit, handOffs } = await openHandOffForm();
    assert.equal(await submit(ALICE), refused({ kind: 'self' }));
    assert.equal(await submit(BOT), refused({ kind: 'cannot-answer', account: 'bot' }));
    assert.equal(await submit(GONE), refused({ kind: 'cannot-answer', account: 'deactivated' }));
    assert.deepEqual(handOffs, [], 'nothing handed off while refused');
    assert.equal(await submit(CAROL), undefined);
    await waitFor(() => handOffs[0], 'the hand-off');
    assert.equal((handOffs as { to: string }[])[0]?.to, CAROL);
  });

  test('someone the allow list leaves out is refused; someone on it is handed the batch', async () => {
    const allowList = { users: [ALICE, CAROL], groups: [] };
    const { submit, handOffs } = await openHandOffForm({ allowList });
    assert.equal(await submit(BOB), refused({ kind: 'not-allowed' }));
    assert.equal(await submit(CAROL), undefined);
    await waitFor(() => handOffs[0], 'the hand-off');
    assert.equal((handOffs as { to: string }[]).length, 1);
  });

  test('a batch answered while the form was open is refused under the picker', async () => {
    let status: 'open' | 'answered' = 'open';
    const { submit, handOffs } = await openHandOffForm({
      record: (posted) => ({ ...posted, status }),
    });
    status = 'answered';
    assert.equal(await submit(BOB), explainRefusal({ kind: 'closed', status: 'answered' }));
    assert.deepEqual(handOffs, []);
  });

  test('a batch the shared store cannot look up is answered "try again", and the form stays open', async () => {
    let failing = false;
    const { app, submit, handOffs } = await openHandOffForm({
      actions: {
        lookup: async () => {
          if (failing) throw new RedisUnavailableError('reading a batch', '127.0.0.1:6379', 'down');
          const record = (running as ListenerApp).record;
          return { record, batch: undefined };
        },
      },
    });
    failing = true;
    assert.equal(await submit(BOB), TRY_AGAIN_TEXT);
    assert.equal(app.slack.views(ALICE).length, 1);
    assert.deepEqual(handOffs, []);
  });
});
