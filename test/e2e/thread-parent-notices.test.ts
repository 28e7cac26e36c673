// Ephemeral notices landing in a thread: Slack gives a thread's parent message `thread_ts`
// equal to its own `ts`, so a notice for a click on the channel message of a batch that
// continues in its thread used to be posted into the thread, where nobody looks.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ACTION_KINDS } from '../../src/core/slack/controls/ids.js';
import { ALICE, BOB, CHANNEL, elementsOf } from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';
import { batchOfMany, E2E_MODE, postBatch, relayPerTest, thread } from './relay-steps.js';

const RUN = 'run-threaded';

/** 60 free-write questions: far too many for one message, so the batch continues in its thread. */
const BIG = batchOfMany(60, 'free-write', (n) => `Question ${n}?`);

const mode = E2E_MODE;
describe(`ephemeral notices for clicks on a thread parent (${mode} mode)`, () => {
  const h = relayPerTest({ config: { allowedUsers: { users: [ALICE], groups: [] } } });

  test('a click on the channel message of a batch with thread replies gets its ephemeral in the channel', async () => {
    const posted = await postBatch(h, RUN, BIG);
    const { ts } = posted;
    await waitFor(
      () => thread(h.slack, ts).length >= 2 || undefined,
      'the batch continued in its thread',
    );
    const button = elementsOf(thread(h.slack, ts)[0]?.blocks ?? []).find((e) =>
      e.actionId.startsWith(ACTION_KINDS.freeWrite),
    );
    assert.ok(button, 'the channel message has a free-write button');
    const at = { channel: CHANNEL, ts, blockId: button.blockId, actionId: button.actionId };

    // answer-actions: Slack refuses the modal, and the person is told so
    h.slack.failNext('views.open', { error: 'expired_trigger_id' });
    await h.slack.clickButton({ ...at, user: ALICE });
    const notice = await waitFor(() => h.slack.ephemerals(ALICE)[0], 'the notice to Alice');
    assert.match(notice.text, /would not open the form/);
    assert.equal(notice.threadTs, undefined, 'in the channel, not the thread');

    // allow-list: someone not allowed is told why, also in the channel
    await h.slack.clickButton({ ...at, user: BOB });
    const refusal = await waitFor(() => h.slack.ephemerals(BOB)[0], 'the refusal to Bob');
    assert.equal(refusal.threadTs, undefined, 'in the channel, not the thread');
    const sent = h.slack.calls.filter((c) => c.method === 'chat.postEphemeral');
    assert.deepEqual(
      sent.map((c) => c.args.thread_ts),
      [undefined, undefined],
    );
  });
});
