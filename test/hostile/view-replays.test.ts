// A signed form submission sent again within Slack's 5-minute signing window (a replay: it
// needs the request, not the secret) is acknowledged and changes nothing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ACTION_KINDS,
  FREE_WRITE_INPUT,
  HAND_OFF_INPUTS,
} from '../../src/core/slack/controls/ids.js';
import {
  at,
  current,
  directCopy,
  FORMAT_AND_NOTES,
  handOffBatch,
  postBatch,
  relayPerTest,
  waitForText,
} from '../e2e/relay-steps.js';
import type { JsonObject } from '../support/fake-slack/index.js';
import { ALICE, BOB, CHANNEL, findElement, type Mode } from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';
import { handOffNotices, REPLAYED, replay, viewIdOf } from './replay-steps.js';

for (const mode of ['socket', 'http'] as const satisfies readonly Mode[]) {
  describe(`a replayed form submission changes nothing (${mode} mode)`, () => {
    const h = relayPerTest({ mode, healthy: true, captureLog: 'info' });
    const said = (msg: string) => h.logged.filter((l) => l.msg === msg);

    test('a hand-off submitted once and replayed twice is handed off once', async () => {
      const a = await postBatch(h, 'run-a', FORMAT_AND_NOTES);
      const { result } = await handOffBatch(h.slack, {
        channel: CHANNEL,
        ts: a.ts,
        from: ALICE,
        to: BOB,
        note: 'yours',
      });
      assert.equal(result.acked, true);
      await directCopy(h.slack, BOB);
      await waitFor(() => said('hand-off').length === 1, 'the hand-off recorded');
      await waitFor(
        () => handOffNotices(h.slack, a.ts).length === 1,
        'the hand-off told in the thread',
      );
      await replay(h.slack, mode, result.payload, 2);
      await waitFor(() => said(REPLAYED).length === 2, 'both replays logged');
      const view = viewIdOf(result.payload);
      assert.deepEqual(
        said(REPLAYED).map((l) => [l.level, l.view]),
        [
          [40, view],
          [40, view],
        ],
      );
      assert.equal(said('hand-off').length, 1, 'the hand-off was recorded once');
      assert.equal(handOffNotices(h.slack, a.ts).length, 1, 'one notice in the thread');
      const copies = h.slack.calls.filter(
        (c) => c.method === 'conversations.open' && c.args.users === BOB,
      );
      assert.equal(copies.length, 1, 'one copy sent to Bob');
    });

    test('a free-write form replayed after a later one does not bring its text back', async () => {
      const a = await postBatch(h, 'run-a', FORMAT_AND_NOTES);
      const write = async (text: string) => {
        const before = h.slack.views(ALICE).length;
        await h.slack.clickButton(
          at(a.ts, findElement(current(h.slack, a.ts).blocks, ACTION_KINDS.freeWrite)),
        );
        const form = await waitFor(() => h.slack.views(ALICE)[before], 'the free-write form');
        const sent = await h.slack.submitView({
          viewId: String(form.id),
          user: ALICE,
          values: { [FREE_WRITE_INPUT.blockId]: { [FREE_WRITE_INPUT.actionId]: text } },
        });
        await waitForText(h.slack, a.ts, text);
        return sent.payload;
      };
      const first = await write('first notes');
      await write('second notes');
      await replay(h.slack, mode, first, 1);
      await waitFor(() => said(REPLAYED).length === 1, 'the replay logged');
      const shown = JSON.stringify(current(h.slack, a.ts).blocks);
      assert.ok(shown.includes('second notes') && !shown.includes('first notes'), shown);
    });

    test('a form refused with an error and sent again fixed is acted on: that is no replay', async () => {
      const a = await postBatch(h, 'run-a', FORMAT_AND_NOTES);
      const button = findElement(current(h.slack, a.ts).blocks, ACTION_KINDS.handOff);
      await h.slack.clickButton(at(a.ts, button));
      const form = await waitFor(() => h.slack.views(ALICE)[0], 'the hand-off form');
      const to = (user: string) => ({
        [HAND_OFF_INPUTS.user.blockId]: { [HAND_OFF_INPUTS.user.actionId]: user },
      });
      // to herself: refused under the picker; the form stays open, with the same id and hash
      const refused = await h.slack.submitView({
        viewId: String(form.id),
        user: ALICE,
        values: to(ALICE),
      });
      const open = await waitFor(
        () => h.slack.views(ALICE)[0]?.errors && h.slack.views(ALICE)[0],
        'the error shown',
      );
      assert.equal(open.hash, (refused.payload.view as JsonObject).hash);
      await h.slack.submitView({ viewId: String(form.id), user: ALICE, values: to(BOB) });
      await waitFor(() => handOffNotices(h.slack, a.ts).length === 1, 'handed to Bob');
      assert.equal(said(REPLAYED).length, 0);
    });
  });
}
