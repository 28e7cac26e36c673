import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import type { ClaimOutcome, SubmitOutcome } from '../../../src/core/batch/outcomes.js';
import { BATCH_BUTTONS, CALLBACK_IDS, CLAIM_VALUES } from '../../../src/core/slack/controls/ids.js';
import { explainClaimedByOther, explainRefusal } from '../../../src/core/slack/outcome-text.js';
import { NOT_THIS_BATCH } from '../../../src/slack/access/action-binding.js';
import { webClientFor } from '../../support/fake-slack/slack-clients.js';
import { ALICE, CHANNEL, findElement } from '../../support/relay-harness.js';
import { waitFor } from '../../support/wait.js';
import { type ListenerApp, REVISION, startListenerApp } from './listener-app.js';

let running: ListenerApp | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const press = (app: ListenerApp, actionId: string, ts = app.ts) =>
  app.slack.clickButton({ channel: CHANNEL, ts, actionId, user: ALICE });

/** What Alice was told privately, once she was told something. */
async function toldAlice(app: ListenerApp): Promise<string[]> {
  await waitFor(() => app.slack.ephemerals(ALICE)[0], 'a private reply to Alice');
  return app.slack.ephemerals(ALICE).map((e) => e.text);
}

describe('the team controls, through the one block actions listener', () => {
  test('"Hand off" opens the hand-off form for its batch, even while its questions cannot be read', async () => {
    running = await startListenerApp({ readable: false });
    const app = running;
    const result = await press(app, BATCH_BUTTONS.handOff);
    assert.equal(result.acked, true);
    const form = await waitFor(() => app.slack.views(ALICE)[0], 'the hand-off form');
    assert.equal(form.callback_id, CALLBACK_IDS.handOff);
    assert.match(JSON.stringify(form.blocks), /Batch 1/, 'titled by its seq without questions');
    const metadata = app.seal.open(String(form.private_metadata));
    assert.deepEqual(JSON.parse(metadata ?? 'null'), { key: app.record.key, revision: REVISION });
    assert.deepEqual(app.slack.ephemerals(ALICE), []);
  });

  for (const { on, value, release } of [
    { on: undefined, value: CLAIM_VALUES.claim, release: false },
    { on: ALICE, value: CLAIM_VALUES.release, release: true },
  ]) {
    const pressed = release ? '"Release", on a batch one is on,' : '"I\'m on it"';
    test(`${pressed} is recorded for whoever pressed it (${value})`, async () => {
      const claims: unknown[] = [];
      running = await startListenerApp({
        ...(on ? { claimedBy: on } : {}),
        actions: {
          claim: async (key, input): Promise<ClaimOutcome> => {
            claims.push({ key, ...input });
            return { kind: 'saved', record: (running as ListenerApp).record };
          },
        },
      });
      const app = running;
      const blocks = app.slack.message(CHANNEL, app.ts)?.blocks ?? [];
      assert.equal(findElement(blocks, BATCH_BUTTONS.claim).element.value, value);
      assert.equal((await press(app, BATCH_BUTTONS.claim)).acked, true);
      await waitFor(() => claims[0], 'the claim');
      assert.deepEqual(claims, [{ key: app.record.key, revision: REVISION, user: ALICE, release }]);
      assert.deepEqual(app.slack.ephemerals(ALICE), [], 'nothing to tell');
    });
  }

  test('"I\'m on it" on a batch someone else is on tells the person so, privately', async () => {
    running = await startListenerApp({
      actions: {
        claim: async (): Promise<ClaimOutcome> => ({ kind: 'claimed-by-other', by: 'U0BOB0001' }),
      },
    });
    await press(running, BATCH_BUTTONS.claim);
    assert.deepEqual(await toldAlice(running), [explainClaimedByOther(false)]);
  });

  test('while the batch is being submitted a team control is refused, where Submit goes on to the queue', async () => {
    const called: string[] = [];
    running = await startListenerApp({
      record: (posted) => ({ ...posted, status: 'submitting' }),
      actions: {
        claim: async (): Promise<ClaimOutcome> => {
          called.push('claim');
          return { kind: 'closed', status: 'submitting' };
        },
        submit: async (): Promise<SubmitOutcome> => {
          called.push('submit');
          return { kind: 'answered', record: (running as ListenerApp).record };
        },
      },
    });
    const app = running;
    await press(app, BATCH_BUTTONS.claim);
    assert.deepEqual(await toldAlice(app), [
      explainRefusal({ kind: 'closed', status: 'submitting' }),
    ]);
    await press(app, BATCH_BUTTONS.handOff);
    await waitFor(() => app.slack.ephemerals(ALICE)[1], 'the second refusal');
    assert.deepEqual(app.slack.views(ALICE), [], 'no hand-off form');
    await press(app, BATCH_BUTTONS.submit);
    await waitFor(() => called[0], 'the submit');
    assert.deepEqual(called, ['submit']);
  });

  test("a team control on a message that is not its batch's changes nothing and says so", async () => {
    const claims: unknown[] = [];
    running = await startListenerApp({
      actions: {
        claim: async (key, input): Promise<ClaimOutcome> => {
          claims.push({ key, ...input });
          return { kind: 'saved', record: (running as ListenerApp).record };
        },
      },
    });
    const app = running;
    // the same controls copied into a message the relay never recorded for the batch
    const copy = await webClientFor(app.slack).chat.postMessage({
      channel: CHANNEL,
      text: 'copy',
      blocks: app.slack.message(CHANNEL, app.ts)?.blocks as never,
    });
    await press(app, BATCH_BUTTONS.claim, String(copy.ts));
    assert.deepEqual(await toldAlice(app), [NOT_THIS_BATCH]);
    assert.deepEqual(claims, []);
  });
});
