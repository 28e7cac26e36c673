import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { readAuditLog } from '../../src/audit/audit-log.js';
import { ACTION_KINDS, DIGEST_CONTROLS } from '../../src/core/slack/controls/ids.js';
import type { FakeSlack } from '../support/fake-slack/index.js';
import { ALICE, BOB, elementsOf } from '../support/relay-harness.js';
import { relayProcessPerTest, spawnRelayFor } from '../support/spawn-relay.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import {
  answerFile,
  click,
  current,
  nextEphemeral,
  qaNames,
  relayPerTest,
  waitForBatchMessage,
  waitForText,
} from './relay-steps.js';
import {
  confirmApproveAll,
  lineControl,
  openApproveAll,
  waitForDigestSaying,
} from './steps/digest.js';

const runName = (n: number) => `run-${String(n).padStart(3, '0')}`;
const yesNo = (n: number) => ({
  seq: 1,
  questions: [{ id: 'go', type: 'yes-no', prompt: `Deploy service ${n}?` }],
});
const YES = `${ACTION_KINDS.oneTap}:0:yes`;
const waiting = (count: number, held = 0) =>
  `${count === 0 ? 'No agent is' : `${count} agent${count === 1 ? ' is' : 's are'}`} waiting for a quick answer${held > 0 ? ` (${held} answered, with Undo open for a moment)` : ''}`;

/** Writes `count` runs of one yes-no batch each under `runs`, and waits for their messages. */
async function postRuns(slack: FakeSlack, runs: string, count: number) {
  for (let n = 1; n <= count; n += 1)
    await writeQuestionFile(path.join(runs, runName(n)), 1, yesNo(n));
  const messages = [];
  for (let n = 1; n <= count; n += 1)
    messages.push(await waitForBatchMessage(slack, runName(n), 1));
  return messages;
}

/** Whether a batch message offers its answers again (open) rather than Undo. */
const isOpen = (slack: FakeSlack, ts: string) => {
  const ids = elementsOf(current(slack, ts).blocks).map((e) => e.actionId);
  return ids.includes(YES) && !ids.includes(ACTION_KINDS.undo);
};

const written = async (run: string) => (await qaNames(run)).includes('q-answers-001.json');

describe('Undo: a decision through the digest is held for a moment before it is written', () => {
  const h = relayPerTest({
    healthy: true,
    config: {
      digestAt: 4,
      undo: { seconds: 6, everywhere: false },
      allowedUsers: { users: [ALICE, BOB], groups: [] },
    },
    start: { digest: { everyMs: 50 } },
  });

  test('Undo inside the window, on the message or the digest: no answer file, the batch open again; one not undone is written when its window ends', async () => {
    const [first, second, third] = await postRuns(h.slack, path.dirname(h.runDir('x')), 4);
    assert.ok(first && second && third);
    const digest = await waitForDigestSaying(h.slack, waiting(4));

    // Bob answers run-001 Yes from the digest: held, with Undo on its message and its line
    await click(h.slack, digest.ts, lineControl(digest, runName(1), DIGEST_CONTROLS.answer), BOB);
    const held = await waitForText(h.slack, first.ts, 'unless undone');
    assert.ok(
      JSON.stringify(held.blocks).includes(
        `Answered by <@${BOB}> via the digest · sent to the agent at <!date^`,
      ),
    );
    assert.ok(elementsOf(held.blocks).some((e) => e.actionId === ACTION_KINDS.undo));
    const showing = await waitForDigestSaying(h.slack, waiting(3, 1));
    assert.ok(lineControl(showing, runName(1), DIGEST_CONTROLS.undo), 'Undo on its line');
    assert.equal(await written(h.runDir(runName(1))), false, 'nothing written while held');

    // Alice may not undo Bob's answer; Bob may, on its message
    const seen = h.slack.ephemerals(ALICE).length;
    await click(h.slack, first.ts, ACTION_KINDS.undo, ALICE);
    assert.match(
      (await nextEphemeral(h.slack, ALICE, seen)).text,
      /Only the person who gave this answer can undo it/,
    );
    await click(h.slack, first.ts, ACTION_KINDS.undo, BOB);
    await waitFor(() => isOpen(h.slack, first.ts), 'run-001 open again on its message');
    const restored = await waitForDigestSaying(h.slack, waiting(4));

    // Bob answers run-002 from the digest and undoes it from the digest's line
    await click(h.slack, digest.ts, lineControl(restored, runName(2), DIGEST_CONTROLS.answer), BOB);
    const heldSecond = await waitForDigestSaying(h.slack, waiting(3, 1));
    await click(h.slack, digest.ts, lineControl(heldSecond, runName(2), DIGEST_CONTROLS.undo), BOB);
    await waitFor(() => isOpen(h.slack, second.ts), 'run-002 open again on its message');

    // Alice answers run-003 and leaves it: written once its window ends, and shown so
    const again = await waitForDigestSaying(h.slack, waiting(4));
    await click(h.slack, digest.ts, lineControl(again, runName(3), DIGEST_CONTROLS.answer), ALICE);
    assert.deepEqual((await answerFile(h.runDir(runName(3)))).answers, [
      { id: 'go', type: 'yes-no', prompt: 'Deploy service 3?', answer: true },
    ]);
    const final = await waitFor(() => {
      const text = JSON.stringify(current(h.slack, third.ts).blocks);
      return (
        text.includes(`Answered by <@${ALICE}> via the digest`) &&
        !text.includes('unless undone') &&
        text
      );
    }, 'run-003 answered on its message');
    assert.ok(!final.includes(ACTION_KINDS.undo), 'no Undo once written');
    // run-001's first window ended before run-003's (decided later): the undone stay unwritten
    assert.equal(await written(h.runDir(runName(1))), false);
    assert.equal(await written(h.runDir(runName(2))), false);
    assert.ok(isOpen(h.slack, first.ts) && isOpen(h.slack, second.ts));

    const { entries } = await waitFor(async () => {
      const read = await readAuditLog(h.config.auditLog);
      return read.entries.length >= 3 ? read : undefined;
    }, 'three entries in the audit log');
    assert.deepEqual(
      entries.map((e) => [path.basename(e.run), e.decision, e.how, e.by === BOB ? 'bob' : 'alice']),
      [
        [runName(1), 'undone', 'undo', 'bob'],
        [runName(2), 'undone', 'undo', 'bob'],
        [runName(3), 'answered', 'digest', 'alice'],
      ],
    );
  });
});

describe('Undo across a SIGKILL: held decisions are in the store', () => {
  const fx = relayProcessPerTest('o7-undo-kill-');
  const start = () => {
    fx.relay = spawnRelayFor(fx.slack, fx.root, {
      logLevel: 'info',
      env: { RELAY_DIGEST_AT: '4', RELAY_UNDO_SECONDS: '20' },
    });
    return fx.relay;
  };

  test('Approve all of 5, two undone, SIGKILL inside the window: after the restart the three are written once, the two never', async () => {
    const runs = path.join(fx.root, 'runs');
    await (await start()).waitForLog('relay ready');
    const messages = await postRuns(fx.slack, runs, 5);
    const digest = await waitForDigestSaying(fx.slack, waiting(5));
    const opened = await openApproveAll(fx.slack, digest.ts, BOB);
    const confirmedAt = Date.now();
    const told = await confirmApproveAll(fx.slack, opened, BOB);
    assert.match(
      told.text,
      /answered 5 of the 5 batches ticked\. They reach the agents in a moment/,
    );
    const allHeld = await waitForDigestSaying(fx.slack, waiting(0, 5));

    // Bob undoes run-002 from the digest's line and run-004 on its own message
    await click(fx.slack, digest.ts, lineControl(allHeld, runName(2), DIGEST_CONTROLS.undo), BOB);
    const fourth = messages[3];
    assert.ok(fourth);
    await waitForText(fx.slack, fourth.ts, 'unless undone');
    await click(fx.slack, fourth.ts, ACTION_KINDS.undo, BOB);
    await waitFor(
      () => isOpen(fx.slack, String(messages[1]?.ts)) && isOpen(fx.slack, fourth.ts),
      () =>
        `run-002 and run-004 open again; the relay said: ${fx.relay?.logs.map((l) => `${l.msg} ${l.key ?? ''} ${l.refusal ?? ''}`).join(' | ')}`,
      15_000,
    );
    await fx.relay?.kill('SIGKILL');
    const killedAfterMs = Date.now() - confirmedAt;
    assert.ok(
      killedAfterMs < 20_000,
      `killed inside the window (${killedAfterMs} ms after Confirm)`,
    );
    for (let n = 1; n <= 5; n += 1) {
      assert.equal(
        await written(path.join(runs, runName(n))),
        false,
        `${runName(n)}: nothing written before the kill`,
      );
    }

    await (await start()).waitForLog('relay ready');
    for (const n of [1, 3, 5]) {
      const answers = (await answerFile(path.join(runs, runName(n)))).answers as {
        answer: unknown;
      }[];
      assert.equal(answers[0]?.answer, true, `${runName(n)} written after the restart`);
    }
    const { entries } = await waitFor(async () => {
      const read = await readAuditLog(path.join(fx.root, 'state', 'audit.jsonl'));
      return read.entries.filter((e) => e.decision === 'answered').length >= 3 ? read : undefined;
    }, 'three answers in the audit log');
    const answered = entries.filter((e) => e.decision === 'answered');
    assert.deepEqual(
      answered.map((e) => path.basename(e.run)).sort(),
      [runName(1), runName(3), runName(5)],
      'each written once',
    );
    assert.ok(answered.every((e) => e.how === 'approve-all' && e.by === BOB));
    assert.deepEqual(
      entries
        .filter((e) => e.decision === 'undone')
        .map((e) => path.basename(e.run))
        .sort(),
      [runName(2), runName(4)],
    );
    assert.equal(await written(path.join(runs, runName(2))), false);
    assert.equal(await written(path.join(runs, runName(4))), false);
    assert.ok(isOpen(fx.slack, String(messages[1]?.ts)) && isOpen(fx.slack, fourth.ts));
  });
});
