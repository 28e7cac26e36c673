import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ACTION_KINDS, actionId } from '../../src/core/slack/controls/ids.js';
import {
  ALICE,
  channelMessages,
  elementsOf,
  findElement,
  visibleText,
} from '../support/relay-harness.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import {
  at,
  batchMessages,
  choose,
  E2E_MODE,
  expectAnswerFile,
  expectedAnswerFile,
  formatBatch,
  okCalls,
  pressSubmit,
  pressYesNo,
  publishRun,
  qaNames,
  relayPerTest,
  waitForAnswerFile,
  waitForBatchMessage,
  waitForClosed,
  waitForMessage,
  writeFreeText,
} from './relay-steps.js';

const mode = E2E_MODE;
describe(`a batch's life end to end (${mode} mode)`, () => {
  const h = relayPerTest();

  test('batch 2 is posted only once batch 1 is answered, as a new message; both answer files are exact', async () => {
    const run = h.runDir('run-two');
    const first = {
      seq: 1,
      questions: [
        { id: 'lang', type: 'choose-one', prompt: 'Language?', options: ['Go', 'Rust', 'TS'] },
        { id: 'tests', type: 'yes-no', prompt: 'Write tests?' },
      ],
    };
    const second = {
      seq: 2,
      questions: [
        { id: 'name', type: 'free-write', prompt: 'Project name?' },
        { id: 'ci', type: 'choose-many', prompt: 'CI on?', options: ['linux', 'mac', 'win'] },
      ],
    };
    // Both files appear at once, so the relay's first look at the run already sees batch 2.
    await publishRun(run, { 'q-out-001.json': first, 'q-out-002.json': second });
    const one = await waitForBatchMessage(h.slack, 'run-two', 1);
    await choose(h.slack, one.ts, 0, [2]);
    await pressYesNo(h.slack, one.ts, 1, true);
    // Two round trips through the run's lock later, batch 2 is still not shown.
    assert.equal(channelMessages(h.slack).length, 1);
    assert.deepEqual(batchMessages(h.slack, 'run-two', 2), []);
    assert.equal(okCalls(h.slack, 'chat.postMessage').length, 1);

    await pressSubmit(h.slack, one.ts);
    await expectAnswerFile(run, first, { lang: 'TS', tests: true });
    const done = await waitForClosed(h.slack, one.ts, 'batch 1 final');
    // when: a date Slack shows in each reader's time zone, else the UTC minute
    const when =
      /<!date\^(\d+)\^\{date_short_pretty\} at \{time\}\|(\d{4}-\d\d-\d\d \d\d:\d\d) UTC>/;
    const answered = new RegExp(`Answered by <@${ALICE}> ${when.source}`).exec(visibleText(done));
    assert.ok(answered, visibleText(done));
    const utc = new Date(Number(answered[1]) * 1000).toISOString();
    assert.equal(answered[2], `${utc.slice(0, 10)} ${utc.slice(11, 16)}`);
    assert.match(done.text, /^Answered: Run run-two, batch 1: Language\?/);

    const two = await waitForBatchMessage(h.slack, 'run-two', 2);
    assert.notEqual(two.ts, one.ts);
    assert.match(two.text, /^Run run-two, batch 2: Project name\?/);
    await writeFreeText(h.slack, two.ts, 0, 'relay & <friends>');
    await choose(h.slack, two.ts, 1, [2, 0]);
    await pressSubmit(h.slack, two.ts);
    await expectAnswerFile(run, second, { name: 'relay & <friends>', ci: ['linux', 'win'] });
    await waitForClosed(h.slack, two.ts, 'batch 2 final');
    assert.deepEqual(await qaNames(run), [
      'q-answers-001.json',
      'q-answers-002.json',
      'q-out-001.json',
      'q-out-002.json',
    ]);
    assert.equal(channelMessages(h.slack).length, 2);
    assert.equal(okCalls(h.slack, 'chat.postMessage').length, 2);
    assert.deepEqual(h.slack.failures, []);
  });

  test('a gap in the sequence: batch 3 is posted with a note about batch 2 and can be answered', async () => {
    const run = h.runDir('run-gap');
    const earlier = formatBatch(1);
    const third = formatBatch(3);
    await publishRun(run, {
      'q-answers-001.json': expectedAnswerFile(earlier, { format: 'JSON', go: true }),
      'q-out-003.json': third,
    });
    const posted = await waitForBatchMessage(h.slack, 'run-gap', 3);
    assert.match(
      visibleText(posted),
      /Batch 2 has no question or answer file; batch 3 is shown next in order\./,
    );
    assert.equal(channelMessages(h.slack).length, 1);

    await choose(h.slack, posted.ts, 0, [1]);
    await pressYesNo(h.slack, posted.ts, 1, false);
    await pressSubmit(h.slack, posted.ts);
    await expectAnswerFile(run, third, { format: 'CSV', go: false });
    await waitForClosed(h.slack, posted.ts, 'batch 3 final');
    assert.deepEqual(await qaNames(run), [
      'q-answers-001.json',
      'q-answers-003.json',
      'q-out-003.json',
    ]);
    assert.deepEqual(h.slack.failures, []);
  });

  test('a malformed batch is shown with its error beside a healthy run, and becomes a normal batch once fixed', async () => {
    const bad = h.runDir('run-bad');
    const good = h.runDir('run-good');
    const broken = {
      seq: 1,
      questions: [{ id: 'pick', type: 'choose-one', prompt: 'Which one?' }],
    };
    await publishRun(bad, { 'q-out-001.json': broken });
    await publishRun(good, { 'q-out-001.json': formatBatch(1) });

    const healthy = await waitForBatchMessage(h.slack, 'run-good', 1);
    const malformed = await waitForBatchMessage(h.slack, 'run-bad', 1);
    assert.equal(
      malformed.text,
      'Run run-bad, batch 1: q-out-001.json could not be read',
      'notification text names the file',
    );
    const seen = visibleText(malformed);
    assert.match(seen, /q-out-001\.json could not be read/);
    assert.ok(
      seen.includes(path.join(bad, 'qa', 'q-out-001.json')),
      `error names the file: ${seen}`,
    );
    assert.match(seen, /at questions\[0\]\.options: "options" is missing/);
    assert.equal(elementsOf(malformed.blocks).length, 0, 'nothing to click on a malformed batch');

    await choose(h.slack, healthy.ts, 0, [0]);
    await pressYesNo(h.slack, healthy.ts, 1, true);
    await pressSubmit(h.slack, healthy.ts);
    await expectAnswerFile(good, formatBatch(1), { format: 'JSON', go: true });
    await waitForClosed(h.slack, healthy.ts, 'healthy batch final');
    assert.deepEqual(await qaNames(bad), ['q-out-001.json']);

    const fixed = {
      seq: 1,
      questions: [
        { id: 'pick', type: 'choose-one', prompt: 'Which one?', options: ['left', 'right'] },
      ],
    };
    await writeQuestionFile(bad, 1, fixed);
    const normal = await waitForMessage(
      h.slack,
      malformed.ts,
      (m) => elementsOf(m.blocks).length > 0,
      'the malformed message turned into a normal batch',
    );
    assert.match(normal.text, /^Run run-bad, batch 1: Which one\?/);
    assert.doesNotMatch(visibleText(normal), /could not be read/);
    assert.equal(batchMessages(h.slack, 'run-bad', 1).length, 1, 'the same message, updated');

    // One choose-one question with two short options: answered by a single tap.
    const right = findElement(normal.blocks, actionId(ACTION_KINDS.oneTap, 0, 1));
    await h.slack.clickButton(at(malformed.ts, right));
    assert.equal(await waitForAnswerFile(bad, 1), expectedAnswerFile(fixed, { pick: 'right' }));
    await waitForClosed(h.slack, malformed.ts, 'fixed batch final');
    assert.equal(channelMessages(h.slack).length, 2);
    assert.deepEqual(h.slack.failures, []);
  });
});
