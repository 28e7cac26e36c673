// Issue #24: in a soak beside CPU-bound work, one person's answer flow failed and its run
// stayed stuck behind it. Reproduced by one person answering several batches at once: they
// have one stack of forms, and opening the form of one batch replaces the other's (Slack's
// views.open). Steps that took "the person's newest form" sent one batch's text in another's
// form, and the first batch waited for its text for good. The steps now send the form their
// own click opened, and open it again when another click replaced it, as the person would.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { type CpuHogs, startCpuHogs } from '../support/cpu-hogs.js';
import { ALICE } from '../support/relay-harness.js';
import { sampleClicks } from '../support/shared-relays.js';
import { relayProcessPerTest, spawnRelayFor } from '../support/spawn-relay.js';
import { sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { expectedAnswerFile, waitForAnswerFile, waitForBatchMessage } from './relay-steps.js';

describe("issue #24's stuck run, beside two CPU-bound processes (socket mode)", () => {
  let hogs: CpuHogs | undefined;
  const fx = relayProcessPerTest('o7-one-person-', async () => {
    await hogs?.stop();
    hogs = undefined;
  });

  test('one person answers three batches at once, click by click, round after round: each text lands in its own batch and no run is left waiting', async () => {
    const { slack, root } = fx;
    hogs = startCpuHogs(2);
    fx.relay = spawnRelayFor(slack, root, { logLevel: 'info' });
    await fx.relay.waitForLog('relay ready');
    const runs = ['run-a', 'run-b', 'run-c'];
    const runDir = (name: string) => path.join(root, 'runs', name);
    for (const seq of [1, 2]) {
      const batch = sampleBatch(seq);
      const posted = await Promise.all(
        runs.map(async (name) => {
          await writeQuestionFile(runDir(name), seq, batch);
          const { ts } = await waitForBatchMessage(slack, name, seq);
          return sampleClicks(slack, ts);
        }),
      );
      await Promise.all(
        posted.map(async (clicks) => {
          await clicks.chooseCsv(ALICE);
          await clicks.chooseTargets(ALICE, ['1']);
          await clicks.sayNo(ALICE);
        }),
      );
      // the three forms are opened at once: each replaces the one before
      await Promise.all(posted.map((clicks, i) => clicks.write(ALICE, `${runs[i]} round ${seq}`)));
      await Promise.all(posted.map((clicks) => clicks.submit(ALICE)));
      for (const name of runs) {
        assert.equal(
          await waitForAnswerFile(runDir(name), seq),
          expectedAnswerFile(batch, {
            format: 'CSV',
            targets: ['ios'],
            notes: `${name} round ${seq}`,
            go: false,
          }),
        );
      }
    }
    assert.deepEqual(slack.failures, []);
  });
});
