// Every action is bound to the batch of the message (or form) it came from. These forgeries
// need a leaked signing secret or app token: the payload is signed, but its block id names a
// batch other than the message's.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ACTION_KINDS } from '../../src/core/slack/controls/ids.js';
import { NOT_THIS_BATCH, REFUSED_FOREIGN } from '../../src/slack/access/action-binding.js';
import {
  at,
  controlOf,
  current,
  directCopy,
  elementById,
  FORMAT_AND_NOTES,
  handOffBatch,
  postBatch,
  relayPerTest,
  waitForSelection,
} from '../e2e/relay-steps.js';
import type { JsonObject } from '../support/fake-slack/index.js';
import {
  ALICE,
  BOB,
  CHANNEL,
  findElement,
  type Harness,
  type Mode,
} from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';

/** A batch whose one question has more options than a static select holds: searched. */
const searched = (label: string) => ({
  seq: 1,
  questions: [
    {
      id: 'site',
      type: 'choose-one',
      prompt: 'Which site?',
      options: Array.from({ length: 150 }, (_, i) => `${label} ${String(i + 1).padStart(3, '0')}`),
    },
    { id: 'go', type: 'yes-no', prompt: 'Proceed?' },
  ],
});

type Action = JsonObject & { block_id: string };
/** The payload with its action's block id replaced. */
const naming =
  (blockId: string) =>
  (p: JsonObject): JsonObject => ({
    ...p,
    actions: (p.actions as Action[]).map((a) => ({ ...a, block_id: blockId })),
  });

/** Edits of one message (of either batch), so far. */
const updates = (h: Harness, ts: string) =>
  h.slack.calls.filter((c) => c.method === 'chat.update' && c.args.ts === ts).length;
const told = (h: Harness, user = ALICE) =>
  h.slack.ephemerals(user).filter((e) => e.text === NOT_THIS_BATCH).length;

for (const mode of ['socket', 'http'] as const satisfies readonly Mode[]) {
  describe(`an action changes only the batch of its message (${mode} mode)`, () => {
    const h = relayPerTest({ mode, healthy: true, captureLog: 'info' });
    const refusals = () => h.logged.filter((l) => l.msg === REFUSED_FOREIGN);

    test("a pick, I'm on it and Submit in batch A's message naming batch B change neither; each is logged once", async () => {
      const a = await postBatch(h, 'run-a', FORMAT_AND_NOTES);
      const b = await postBatch(h, 'run-b', FORMAT_AND_NOTES);
      const inA = (prefix: string) => findElement(current(h.slack, a.ts).blocks, prefix);
      const inB = (prefix: string) => findElement(current(h.slack, b.ts).blocks, prefix);
      const before = [updates(h, a.ts), updates(h, b.ts)];
      const results = [
        await h.slack.selectOption({
          ...at(a.ts, controlOf(a.blocks, 0)),
          value: '1',
          forge: naming(controlOf(b.blocks, 0).blockId),
        }),
        await h.slack.clickButton({
          ...at(a.ts, elementById(a.blocks, ACTION_KINDS.claim)),
          forge: naming(elementById(b.blocks, ACTION_KINDS.claim).blockId),
        }),
        await h.slack.clickButton({
          ...at(a.ts, inA(ACTION_KINDS.submit)),
          forge: naming(inB(ACTION_KINDS.submit).blockId),
        }),
      ];
      assert.deepEqual(
        results.map((r) => r.acked),
        [true, true, true],
        'acknowledged, so Slack shows no error',
      );
      await waitFor(() => told(h) === 3, 'Alice told of each');
      const keyB = controlOf(b.blocks, 0).blockId.split('|')[1];
      assert.deepEqual(
        refusals().map((l) => [l.level, l.key, l.from]),
        [
          [40, keyB, 'message'],
          [40, keyB, 'message'],
          [40, keyB, 'message'],
        ],
      );
      assert.deepEqual(
        [updates(h, a.ts), updates(h, b.ts)],
        before,
        'neither message changed: nothing was saved',
      );
      assert.equal(h.logged.filter((l) => l.msg === 'batch claimed').length, 0);
      // B itself is answerable as before
      await h.slack.selectOption({ ...at(b.ts, controlOf(b.blocks, 0)), value: '2' });
      await waitForSelection(h.slack, b.ts, 0, ['2']);
      assert.equal(refusals().length, 3);
    });

    test("a click in a hand-off's direct-message copy acts on its batch; one naming another batch is refused", async () => {
      const a = await postBatch(h, 'run-a', FORMAT_AND_NOTES);
      const b = await postBatch(h, 'run-b', FORMAT_AND_NOTES);
      await handOffBatch(h.slack, { channel: CHANNEL, ts: a.ts, from: ALICE, to: BOB });
      const copy = await directCopy(h.slack, BOB);
      // Bob's pick in the copy of question 1
      const inCopy = () => ({
        ...at(copy.ts, controlOf(h.slack.message(copy.channel, copy.ts)?.blocks ?? [], 0), BOB),
        channel: copy.channel,
      });
      const before = updates(h, b.ts);
      await h.slack.selectOption({
        ...inCopy(),
        value: '0',
        forge: naming(controlOf(b.blocks, 0).blockId),
      });
      await waitFor(() => told(h, BOB) === 1, 'Bob told');
      assert.equal(refusals().length, 1);
      assert.equal(updates(h, b.ts), before, 'B unchanged');
      // the copy's own control is the batch's
      await h.slack.selectOption({ ...inCopy(), value: '2' });
      await waitForSelection(h.slack, a.ts, 0, ['2']);
      assert.equal(refusals().length, 1);
    });

    test("a search in batch A's select lists none of batch B's options", async () => {
      const a = await postBatch(h, 'run-a', searched('Public'));
      const b = await postBatch(h, 'run-b', searched('Hidden'));
      const selectOf = (blocks: typeof a.blocks) => controlOf(blocks, 0);
      assert.equal(selectOf(a.blocks).type, 'external_select');
      const forged = await h.slack.suggest({
        ...at(a.ts, selectOf(a.blocks)),
        value: 'Hidden 042',
        forge: (p) => ({ ...p, block_id: selectOf(b.blocks).blockId }),
      });
      assert.equal(forged.acked, true);
      assert.deepEqual(forged.options, []);
      const own = await h.slack.suggest({ ...at(b.ts, selectOf(b.blocks)), value: 'Hidden 042' });
      assert.deepEqual(
        own.options.map((o) => o.value),
        ['41'],
      );
    });

    test('a click from a form the relay opened for batch A naming batch B is refused', async () => {
      const a = await postBatch(h, 'run-a', FORMAT_AND_NOTES);
      const b = await postBatch(h, 'run-b', FORMAT_AND_NOTES);
      await h.slack.clickButton(at(a.ts, findElement(a.blocks, ACTION_KINDS.freeWrite)));
      const form = await waitFor(() => h.slack.views(ALICE)[0], "A's free-write form");
      const before = updates(h, b.ts);
      const result = await h.slack.selectOption({
        ...at(a.ts, controlOf(a.blocks, 0)),
        value: '1',
        forge: (p) => {
          const {
            channel: _c,
            message: _m,
            state: _s,
            ...rest
          } = naming(controlOf(b.blocks, 0).blockId)(p);
          return {
            ...rest,
            container: { type: 'view', view_id: form.id },
            view: { id: form.id, private_metadata: form.private_metadata },
          };
        },
      });
      assert.equal(result.acked, true);
      await waitFor(() => refusals().length === 1, 'the refusal logged');
      assert.equal(refusals()[0]?.from, 'view');
      assert.equal(updates(h, b.ts), before, 'B unchanged');
    });
  });
}
