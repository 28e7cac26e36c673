// Edits of a batch's message are paced: a burst of clicks costs at most one chat.update per
// window, and the message always ends showing the last state, Submit's answered state included.

import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { ACTION_KINDS } from '../../src/core/slack/controls/ids.js';
import { findElement, type Harness, startRelayHarness } from '../support/relay-harness.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import {
  at,
  current,
  pressSubmit,
  waitForAnswerFile,
  waitForBatchMessage,
  waitForClosed,
  waitForMessage,
} from './relay-steps.js';

/** Long enough that a burst of clicks (acknowledged one by one on loopback) falls inside it. */
const WINDOW_MS = 2000;

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

test('a burst of clicks on one message makes at most one edit per window, and the message ends showing the last state', async () => {
  h = await startRelayHarness('socket', { start: { updateEveryMs: WINDOW_MS } });
  const slack = h.slack;
  const questions = ['build', 'test', 'tag', 'ship'].map((id) => ({
    id,
    type: 'yes-no',
    prompt: `Run ${id}?`,
  }));
  await writeQuestionFile(h.runDir('run-burst'), 1, { seq: 1, questions });
  const { ts } = await waitForBatchMessage(slack, 'run-burst', 1);
  const updates = () =>
    slack.calls.filter(
      (c) => c.method === 'chat.update' && c.args.ts === ts && c.response.ok === true,
    ).length;

  // Yes on every question, each click as soon as the one before is acknowledged
  for (const [index] of questions.entries()) {
    const yes = findElement(current(slack, ts).blocks, `${ACTION_KINDS.yesNo}:${index}:yes`);
    const result = await slack.clickButton(at(ts, yes));
    assert.equal(result.acked, true);
  }
  const chosen = (index: number) =>
    String(
      (
        findElement(current(slack, ts).blocks, `${ACTION_KINDS.yesNo}:${index}:yes`).element
          .text as {
          text?: string;
        }
      ).text,
    ).startsWith('✓');
  await waitForMessage(
    slack,
    ts,
    () => questions.every((_, index) => chosen(index)),
    'every Yes shown as chosen',
  );
  assert.ok(updates() <= 2, `one edit at once, the rest in one more (${updates()})`);

  // Submit right after: its answer is written at once, and its edit still goes out, last
  await pressSubmit(slack, ts);
  await waitForAnswerFile(h.runDir('run-burst'), 1);
  const final = await waitForClosed(slack, ts, 'the answered message');
  assert.match(JSON.stringify(final.blocks), /Answered by/);
  assert.ok(updates() <= 3, `four clicks and Submit in at most three edits (${updates()})`);
  assert.deepEqual(slack.failures, []);
});
