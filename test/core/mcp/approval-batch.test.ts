import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isEnvelopeBatch,
  questionsMissingText,
} from '../../../src/core/envelope/envelope-batch.js';
import {
  approvalBatch,
  choicesProblem,
  readApproval,
} from '../../../src/core/mcp/approval-batch.js';
import { parseQuestionFile } from '../../../src/core/protocol/questions/parse-question-file.js';

const DEPLOY = { action: 'Deploy 1.4 to production', details: '- 12 commits\n- **one** migration' };

/** The batch as the relay reads it from the asks folder, which it writes itself. */
function asRelayReadsIt(batch: ReturnType<typeof approvalBatch>) {
  const parsed = parseQuestionFile(JSON.stringify(batch), 'q-out-001.json');
  assert.ok(parsed.ok, JSON.stringify(parsed));
  return { ...parsed.value, writtenByRelay: true as const };
}

describe('approvalBatch', () => {
  it('asks one choose-one question: the action, the details as markdown, each choice plain and with a note', () => {
    const batch = approvalBatch(DEPLOY);
    const [question] = batch.questions;
    assert.equal(question?.prompt, DEPLOY.action);
    assert.deepEqual(question?.preview, { type: 'markdown', content: DEPLOY.details });
    assert.deepEqual(question?.options, [
      'Approve',
      'Approve with a note…',
      'Deny',
      'Deny with a note…',
    ]);
    assert.deepEqual(question?.followUps, [1, 3]);
    assert.ok(isEnvelopeBatch(asRelayReadsIt(batch)), 'shown and cancelled as an envelope batch');
  });

  it('wants typed text only for the "with a note…" options', () => {
    const { questions } = asRelayReadsIt(approvalBatch(DEPLOY));
    assert.deepEqual(questionsMissingText(questions, { q1: 'Deny' }, {}), []);
    assert.deepEqual(questionsMissingText(questions, { q1: 'Deny with a note…' }, {}), ['q1']);
  });

  it("leaves out a blank preview and takes the agent's own choices", () => {
    const batch = approvalBatch({
      action: 'Merge?',
      details: '  ',
      choices: [
        { label: 'Merge', approves: true },
        { label: 'Squash', approves: true },
        { label: 'Leave it', approves: false },
      ],
    });
    const [question] = batch.questions;
    assert.equal(question?.preview, undefined);
    assert.equal(question?.options.length, 6);
    assert.equal(question?.options[3], 'Squash with a note…');
  });
});

describe('readApproval', () => {
  it('reads the choice, whether it approves, and the note typed with it', () => {
    assert.deepEqual(readApproval(DEPLOY, 'Approve', undefined), {
      approved: true,
      choice: 'Approve',
    });
    assert.deepEqual(readApproval(DEPLOY, 'Deny with a note…', '  not on a Friday \n'), {
      approved: false,
      choice: 'Deny',
      note: 'not on a Friday',
    });
    assert.deepEqual(readApproval(DEPLOY, 'Deny with a note…', ' '), {
      approved: false,
      choice: 'Deny',
    });
  });

  it('is undefined for an answer that is none of the options', () => {
    assert.equal(readApproval(DEPLOY, 'Maybe', undefined), undefined);
    assert.equal(readApproval(DEPLOY, ['Approve'], undefined), undefined);
  });
});

describe('choicesProblem', () => {
  /** Two choices: the first approves, the second approves when `approves` says so. */
  const pair = (first: string, second: string, approves = false) => [
    { label: first, approves: true },
    { label: second, approves },
  ];

  it("refuses a label twice, one that reads as another's note option, and choices all one way", () => {
    assert.match(String(choicesProblem(pair('Go', 'Go'))), /"Go" comes twice/);
    assert.match(
      String(choicesProblem(pair('Go', 'Go with a note…'))),
      /"Go with a note…" comes twice/,
    );
    assert.match(String(choicesProblem(pair('A', 'B', true))), /one must not/);
    assert.equal(choicesProblem(pair('A', 'B')), undefined);
  });
});
