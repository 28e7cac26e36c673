// A batch taken away from Slack while people look at it: answered in another tool, withdrawn by
// the agent, or rewritten. Clicks on what people still see change nothing and say why.
import assert from 'node:assert/strict';
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ACTION_KINDS, actionId } from '../../src/core/slack/controls/ids.js';
import type { FakeSlack } from '../support/fake-slack/index.js';
import {
  ALICE,
  channelMessages,
  elementsOf,
  type FoundElement,
  findElement,
  visibleText,
} from '../support/relay-harness.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import {
  at,
  choose,
  current,
  E2E_MODE,
  expectAnswerFile,
  expectBatchOneAnswerKept,
  expectedAnswerFile,
  formatBatch,
  GO,
  holdMessageUpdates,
  nextEphemeral,
  postFormatBatch,
  pressSubmit,
  pressYesNo,
  publishRun,
  qaNames,
  readAnswerFile,
  relayPerTest,
  waitForBatchMessage,
  waitForClosed,
  waitForMessage,
  writeAnswerFileAsOtherTool,
} from './relay-steps.js';

/**
 * Alice acts on `element` of a version of the message at `ts` she still sees: picks option
 * `value` of radio buttons, presses anything else. Returns the ephemeral she is told next.
 */
async function aliceActsOn(slack: FakeSlack, ts: string, element: FoundElement, value = '0') {
  const seen = slack.ephemerals(ALICE).length;
  if (element.type === 'radio_buttons') await slack.selectOption({ ...at(ts, element), value });
  else await slack.clickButton(at(ts, element));
  return nextEphemeral(slack, ALICE, seen);
}

const mode = E2E_MODE;
describe(`a batch closed while people look at it (${mode} mode)`, () => {
  const h = relayPerTest();

  test('answered in another tool: final message without controls, next batch up, old clicks refused', async () => {
    const run = h.runDir('run-tui');
    const second = formatBatch(2);
    await publishRun(run, {
      'q-out-001.json': formatBatch(1),
      'q-out-002.json': second,
    });
    const one = await waitForBatchMessage(h.slack, 'run-tui', 1);
    await choose(h.slack, one.ts, 0, [0]); // a draft of JSON in Slack, never submitted
    const old = current(h.slack, one.ts);

    // Slack is slow to take the edit, so people still see (and click) batch 1's controls.
    const hold = holdMessageUpdates(h.slack);
    const tuiAnswers = expectedAnswerFile(formatBatch(1), { format: 'CSV', go: false });
    await writeAnswerFileAsOtherTool(run, 1, JSON.parse(tuiAnswers));
    await hold.waitRefused();

    const onPick = await aliceActsOn(
      h.slack,
      one.ts,
      findElement(old.blocks, actionId(ACTION_KINDS.choose, 0)),
      '1',
    );
    assert.match(onPick.text, /already answered in another tool; nothing was changed/);
    for (const prefix of [actionId(ACTION_KINDS.yesNo, 1, 'yes'), ACTION_KINDS.submit]) {
      const notice = await aliceActsOn(h.slack, one.ts, findElement(old.blocks, prefix));
      assert.match(notice.text, /already answered in another tool/, `after ${prefix}`);
    }
    await expectBatchOneAnswerKept(run, tuiAnswers, "the other tool's file is untouched");

    await hold.release();
    const final = await waitForClosed(h.slack, one.ts, 'batch 1 shown as answered in another tool');
    assert.match(final.text, /^Answered in another tool: Run run-tui, batch 1: Output format\?/);
    const shown = visibleText(final);
    assert.match(shown, /Answered in another tool · /);
    assert.match(shown, /\*Answer:\*\n>CSV/, "the other tool's answer, not the Slack draft");

    const two = await waitForBatchMessage(h.slack, 'run-tui', 2);
    assert.notEqual(two.ts, one.ts);
    await choose(h.slack, two.ts, 0, [1]);
    await pressYesNo(h.slack, two.ts, 1, true);
    await pressSubmit(h.slack, two.ts);
    await expectAnswerFile(run, second, { format: 'CSV', go: true });
    assert.equal(await readAnswerFile(run, 1), tuiAnswers);
    assert.equal(channelMessages(h.slack).length, 2);
    assert.deepEqual(h.slack.failures, []);
  });

  test('withdrawn: the message says so, and clicks on it change nothing', async () => {
    const run = h.runDir('run-gone');
    const batch = {
      seq: 1,
      questions: [...formatBatch(1).questions, { id: 'why', type: 'free-write', prompt: 'Why?' }],
    };
    await publishRun(run, { 'q-out-001.json': batch });
    const posted = await waitForBatchMessage(h.slack, 'run-gone', 1);
    await choose(h.slack, posted.ts, 0, [1]);
    const old = current(h.slack, posted.ts);

    const hold = holdMessageUpdates(h.slack);
    await unlink(path.join(run, 'qa', 'q-out-001.json'));
    await hold.waitRefused();

    for (const prefix of [
      actionId(ACTION_KINDS.choose, 0),
      actionId(ACTION_KINDS.yesNo, 1, 'no'),
      actionId(ACTION_KINDS.freeWrite, 2),
      ACTION_KINDS.submit,
    ]) {
      const notice = await aliceActsOn(h.slack, posted.ts, findElement(old.blocks, prefix));
      assert.match(notice.text, /withdrew this batch.*; nothing was changed/, `after ${prefix}`);
    }
    assert.deepEqual(h.slack.views(ALICE), [], 'no free-write modal for a withdrawn batch');
    assert.deepEqual(await qaNames(run), []);

    await hold.release();
    const final = await waitForClosed(h.slack, posted.ts, 'the message shows the batch withdrawn');
    assert.match(final.text, /^Withdrawn: Run run-gone, batch 1: Output format\?/);
    assert.match(visibleText(final), /Withdrawn by the agent · /);
    assert.deepEqual(await qaNames(run), []);
    assert.equal(channelMessages(h.slack).length, 1);
    assert.deepEqual(h.slack.failures, []);
  });

  test('rewritten: the same message shows the new questions; clicks on the old version are refused as changed', async () => {
    const { run, posted } = await postFormatBatch(h, 'run-redo');
    await choose(h.slack, posted.ts, 0, [0]);
    await pressYesNo(h.slack, posted.ts, 1, true);
    const old = current(h.slack, posted.ts);
    const oldYes = findElement(old.blocks, actionId(ACTION_KINDS.yesNo, 1, 'yes'));
    const oldSubmit = findElement(old.blocks, ACTION_KINDS.submit);

    const rewritten = {
      seq: 1,
      questions: [
        { id: 'ship', type: 'yes-no', prompt: 'Ship today?' },
        GO,
        { id: 'target', type: 'choose-many', prompt: 'Where?', options: ['eu', 'us'] },
      ],
    };
    // Question 1 ("go") is the same yes-no in both versions, so its old button still decodes.
    const hold = holdMessageUpdates(h.slack);
    await writeQuestionFile(run, 1, rewritten);
    await hold.waitRefused();

    for (const element of [oldYes, oldSubmit]) {
      const notice = await aliceActsOn(h.slack, posted.ts, element);
      assert.match(notice.text, /changed this batch/, `after ${element.actionId}`);
    }
    assert.deepEqual(await qaNames(run), ['q-out-001.json']);

    await hold.release();
    const fresh = await waitForMessage(
      h.slack,
      posted.ts,
      (m) => m.text.includes('Ship today?'),
      'the message shows the rewritten questions',
    );
    assert.equal(channelMessages(h.slack).length, 1, 'the same message, updated');
    const shown = visibleText(fresh);
    assert.match(shown, /Ship today\?/);
    assert.match(shown, /Where\?/);
    assert.doesNotMatch(shown, /Output format\?/);
    const now = elementsOf(fresh.blocks);
    assert.ok(
      now.every((e) => e.blockId.split('|')[2] !== oldYes.blockId.split('|')[2]),
      'new block ids carry the new revision',
    );
    assert.doesNotMatch(
      JSON.stringify(fresh.blocks),
      /✓/,
      'the Yes drafted for "go" in the old version is not carried over',
    );

    await pressYesNo(h.slack, posted.ts, 0, true);
    await pressYesNo(h.slack, posted.ts, 1, false);
    await choose(h.slack, posted.ts, 2, [1]);
    await pressSubmit(h.slack, posted.ts);
    await expectAnswerFile(run, rewritten, { ship: true, go: false, target: ['us'] });
    await waitForClosed(h.slack, posted.ts, 'rewritten batch final');
    assert.deepEqual(h.slack.failures, []);
  });

  test('answered in another tool: the final message does not show Slack drafts as the answers', async () => {
    const { run, posted } = await postFormatBatch(h, 'run-drafted');
    await choose(h.slack, posted.ts, 0, [0]); // JSON, drafted in Slack and never submitted
    await pressYesNo(h.slack, posted.ts, 1, true);
    await writeAnswerFileAsOtherTool(
      run,
      1,
      JSON.parse(expectedAnswerFile(formatBatch(1), { format: 'CSV', go: false })),
    );
    const final = await waitForClosed(h.slack, posted.ts, 'final message');
    const shown = visibleText(final);
    assert.match(shown, /Answered in another tool · /);
    // The file says CSV and No; JSON and Yes were only drafts and were never answers.
    assert.match(shown, /\*Answer:\*\n>CSV/, `final message: ${shown}`);
    assert.match(shown, /\*Answer:\*\n>No/, `final message: ${shown}`);
    assert.doesNotMatch(shown, /\*Answer:\*\n>JSON/, `final message shows a draft: ${shown}`);
    assert.doesNotMatch(shown, /\*Answer:\*\n>Yes/, `final message shows a draft: ${shown}`);
    assert.deepEqual(h.slack.failures, []);
  });

  test('answered in another tool whose echo differs from the q-out (check refuses it): its answers are still shown', async () => {
    const { run, posted } = await postFormatBatch(h, 'run-loose-echo');
    const file = JSON.parse(expectedAnswerFile(formatBatch(1), { format: 'CSV', go: false }));
    file.questions = file.questions.slice(0, 1);
    file.answers[0].prompt = `${file.answers[0].prompt} (reworded)`;
    await writeAnswerFileAsOtherTool(run, 1, file);
    const final = await waitForClosed(h.slack, posted.ts, 'final message');
    const shown = visibleText(final);
    assert.match(shown, /\*Answer:\*\n>CSV/, `final message: ${shown}`);
    assert.match(shown, /\*Answer:\*\n>No/, `final message: ${shown}`);
    assert.deepEqual(h.slack.failures, []);
  });

  test('rewritten: a click on an old element whose question changed type is refused as changed, not ignored', async () => {
    const { run, posted } = await postFormatBatch(h, 'run-retyped');
    const oldRadio = findElement(posted.blocks, actionId(ACTION_KINDS.choose, 0));
    const retyped = {
      seq: 1,
      questions: [{ id: 'ship', type: 'yes-no', prompt: 'Ship today?' }, GO],
    };
    const hold = holdMessageUpdates(h.slack);
    await writeQuestionFile(run, 1, retyped);
    await hold.waitRefused();
    const notice = await aliceActsOn(h.slack, posted.ts, oldRadio, '1');
    assert.match(notice.text, /changed this batch/);
    assert.deepEqual(await qaNames(run), ['q-out-001.json']);
    await hold.release();
    await waitForMessage(
      h.slack,
      posted.ts,
      (m) => m.text.includes('Ship today?'),
      'the new version shown',
    );
    assert.deepEqual(h.slack.failures, []);
  });
});
