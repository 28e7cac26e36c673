import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  buildAnswerFile,
  serializeAnswerFile,
} from '../../../src/core/protocol/build-answer-file.js';
import { parseAnswerFile } from '../../../src/core/protocol/parse-answer-file.js';
import { parseQuestionFile } from '../../../src/core/protocol/parse-question-file.js';
import type { QuestionBatch } from '../../../src/core/protocol/question.js';

const QUESTIONS = [
  { id: 'format', type: 'choose-one', prompt: 'Which format?', options: ['JSON', 'CSV'] },
  { id: 'ship', type: 'yes-no', prompt: 'Ship?' },
];

function batch(seq = 1): QuestionBatch {
  const parsed = parseQuestionFile(JSON.stringify({ seq, questions: QUESTIONS }), 'q-out.json');
  assert.ok(parsed.ok);
  return parsed.value;
}

const answerText = (seq: number, format: unknown, ship: unknown): string =>
  JSON.stringify({
    seq,
    answers: [
      { ...QUESTIONS[0], answer: format },
      { ...QUESTIONS[1], answer: ship },
    ],
    questions: QUESTIONS,
  });

describe('parseAnswerFile', () => {
  it('reads what buildAnswerFile writes', () => {
    const built = buildAnswerFile(batch(), { format: 'CSV', ship: true });
    assert.ok(built.ok);
    const parsed = parseAnswerFile(
      serializeAnswerFile(built.value),
      'qa/q-answers-001.json',
      batch(),
    );
    assert.deepEqual(parsed, { ok: true, value: built.value });
  });

  it('checks answers against the options echoed in the file when no batch is given', () => {
    const parsed = parseAnswerFile(answerText(1, 'XML', true), 'q-answers-001.json');
    assert.deepEqual(parsed, {
      ok: false,
      error: {
        file: 'q-answers-001.json',
        problems: [
          {
            path: 'answers[0].answer',
            message: 'expected one option from "JSON", "CSV", found "XML"',
          },
        ],
      },
    });
  });

  it('compares seq with the batch when the name does not say', () => {
    const parsed = parseAnswerFile(answerText(2, 'JSON', true), 'answers.json', batch(1));
    assert.ok(!parsed.ok);
    assert.deepEqual(parsed.error.problems, [
      { path: 'seq', message: 'expected 1, the seq of the questions, found 2' },
    ]);
  });

  it('reports shape problems before comparing with the batch', () => {
    const parsed = parseAnswerFile(answerText(1, 'JSON', 'yes'), 'q-answers-001.json', batch());
    assert.ok(!parsed.ok);
    assert.deepEqual(parsed.error.problems, [
      { path: 'answers[1].answer', message: 'expected true or false, found "yes"' },
    ]);
  });

  it('refuses a seq that does not match the file name', () => {
    const parsed = parseAnswerFile(answerText(1, 'JSON', true), 'q-answers-002.json');
    assert.ok(!parsed.ok);
    assert.deepEqual(parsed.error.problems, [
      { path: 'seq', message: 'expected 2 to match the file name q-answers-002.json, found 1' },
    ]);
  });

  it('keeps extra top-level fields', () => {
    const text = JSON.stringify({ ...JSON.parse(answerText(1, 'JSON', false)), answeredBy: 'U1' });
    const parsed = parseAnswerFile(text, 'q-answers-001.json', batch());
    assert.ok(parsed.ok);
    assert.equal((parsed.value as unknown as { answeredBy: string }).answeredBy, 'U1');
  });
});
