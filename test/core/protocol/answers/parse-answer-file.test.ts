import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  buildAnswerFile,
  serializeAnswerFile,
} from '../../../../src/core/protocol/answers/build-answer-file.js';
import { parseAnswerFile } from '../../../../src/core/protocol/answers/parse-answer-file.js';
import { parseQuestionFile } from '../../../../src/core/protocol/questions/parse-question-file.js';
import type { QuestionBatch } from '../../../../src/core/protocol/questions/question.js';

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

  it('refuses a choose-many answer that names an option twice, with or without the batch', () => {
    const many = { id: 'targets', type: 'choose-many', prompt: 'Where?', options: ['a', 'b', 'c'] };
    const text = JSON.stringify({
      seq: 1,
      answers: [{ ...many, answer: ['a', 'c', 'a'] }],
      questions: [many],
    });
    const problem = {
      path: 'answers[0].answer',
      message: 'expected each option once, found "a" more than once in an array ["a","c","a"]',
    };
    const alone = parseAnswerFile(text, 'q-answers-001.json');
    assert.ok(!alone.ok);
    assert.deepEqual(alone.error.problems, [problem]);
    const parsed = parseQuestionFile(
      JSON.stringify({ seq: 1, questions: [many] }),
      'q-out-001.json',
    );
    assert.ok(parsed.ok);
    const against = parseAnswerFile(text, 'q-answers-001.json', parsed.value);
    assert.ok(!against.ok);
    assert.deepEqual(against.error.problems, [problem]);
  });

  it('accepts choose-many picks in any order: the protocol asks for options, not their order', () => {
    const many = { id: 'targets', type: 'choose-many', prompt: 'Where?', options: ['a', 'b', 'c'] };
    const text = JSON.stringify({
      seq: 1,
      answers: [{ ...many, answer: ['c', 'a'] }],
      questions: [many],
    });
    const parsed = parseQuestionFile(
      JSON.stringify({ seq: 1, questions: [many] }),
      'q-out-001.json',
    );
    assert.ok(parsed.ok);
    assert.equal(parseAnswerFile(text, 'q-answers-001.json', parsed.value).ok, true);
  });

  it('matches the batch exactly unless asked for the answers alone, as the relay shows them', () => {
    const changed = JSON.parse(answerText(1, 'JSON', true));
    changed.answers[0].prompt = 'Which format, again?';
    changed.questions = [{ ...QUESTIONS[0], options: ['JSON', 'CSV', 'XML'] }, QUESTIONS[1]];
    const text = JSON.stringify(changed);
    const exact = parseAnswerFile(text, 'q-answers-001.json', batch());
    assert.ok(!exact.ok);
    assert.deepEqual(exact.error.problems, [
      {
        path: 'answers[0].prompt',
        message:
          'expected "Which format?", the prompt of question "format", found "Which format, again?"',
      },
      {
        path: 'questions[0].options',
        message:
          'expected an array ["JSON","CSV"] as in q-out-001.json (2 items), found an array ["JSON","CSV","XML"] (3 items)',
      },
    ]);
    assert.equal(parseAnswerFile(text, 'q-answers-001.json', batch(), 'answers').ok, true);
  });
});
