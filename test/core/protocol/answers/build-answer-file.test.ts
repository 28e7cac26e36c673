import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  buildAnswerFile,
  serializeAnswerFile,
} from '../../../../src/core/protocol/answers/build-answer-file.js';
import { parseQuestionFile } from '../../../../src/core/protocol/questions/parse-question-file.js';
import type { Answer, QuestionBatch } from '../../../../src/core/protocol/questions/question.js';

const SOURCE = {
  seq: 4,
  questions: [
    {
      id: 'format',
      type: 'choose-one',
      prompt: 'Which format?',
      options: ['JSON', 'CSV', 'plain text'],
      default: 'JSON',
    },
    {
      id: 'targets',
      type: 'choose-many',
      prompt: 'Which targets?',
      options: ['linux', 'macos', 'windows'],
      preview: { type: 'ascii', content: '+--+', width: 4 },
    },
    { id: 'notes', type: 'free-write', prompt: 'Anything else?', options: [] },
    { id: 'ship', type: 'yes-no', prompt: 'Ship today?', meta: { tags: ['x', null] } },
  ],
};

function batch(): QuestionBatch {
  const parsed = parseQuestionFile(JSON.stringify(SOURCE), 'q-out-004.json');
  assert.ok(parsed.ok);
  return parsed.value;
}

const GOOD: Record<string, Answer> = {
  format: 'CSV',
  targets: ['windows', 'linux'],
  notes: 'none',
  ship: false,
};

const problemsFor = (answers: Record<string, Answer>): string[] => {
  const built = buildAnswerFile(batch(), answers);
  assert.ok(!built.ok, 'expected a refusal');
  return built.error.map((p) => p.message);
};

describe('buildAnswerFile', () => {
  it('answers every type, echoing each question and all of its fields', () => {
    const built = buildAnswerFile(batch(), GOOD);
    assert.deepEqual(built, {
      ok: true,
      value: {
        seq: 4,
        answers: [
          {
            id: 'format',
            type: 'choose-one',
            prompt: 'Which format?',
            options: ['JSON', 'CSV', 'plain text'],
            answer: 'CSV',
          },
          {
            id: 'targets',
            type: 'choose-many',
            prompt: 'Which targets?',
            options: ['linux', 'macos', 'windows'],
            answer: ['linux', 'windows'],
          },
          {
            id: 'notes',
            type: 'free-write',
            prompt: 'Anything else?',
            options: [],
            answer: 'none',
          },
          { id: 'ship', type: 'yes-no', prompt: 'Ship today?', answer: false },
        ],
        questions: SOURCE.questions,
      },
    });
  });

  it('writes answer entries with keys in protocol order and options only where the question has them', () => {
    const built = buildAnswerFile(batch(), GOOD);
    assert.ok(built.ok);
    assert.deepEqual(
      built.value.answers.map((entry) => Object.keys(entry)),
      [
        ['id', 'type', 'prompt', 'options', 'answer'],
        ['id', 'type', 'prompt', 'options', 'answer'],
        ['id', 'type', 'prompt', 'options', 'answer'],
        ['id', 'type', 'prompt', 'answer'],
      ],
    );
  });

  it('puts choose-many picks in option order and drops repeats', () => {
    const built = buildAnswerFile(batch(), {
      ...GOOD,
      targets: ['windows', 'linux', 'windows', 'macos'],
    });
    assert.ok(built.ok);
    assert.deepEqual(built.value.answers[1]?.answer, ['linux', 'macos', 'windows']);
  });

  it('echoes a copy, so changing the answer file cannot change the batch', () => {
    const source = batch();
    const built = buildAnswerFile(source, GOOD);
    assert.ok(built.ok);
    (built.value.questions[0] as { id: string }).id = 'changed';
    assert.deepEqual(source.source, SOURCE);
  });

  it('accepts an empty free-write answer', () => {
    assert.equal(buildAnswerFile(batch(), { ...GOOD, notes: '' }).ok, true);
  });

  it('refuses a missing answer, naming the question id and index', () => {
    const { ship: _ship, ...rest } = GOOD;
    const built = buildAnswerFile(batch(), rest);
    assert.deepEqual(built, {
      ok: false,
      error: [
        {
          questionId: 'ship',
          questionIndex: 3,
          message: 'question "ship" (questions[3]) has no answer; expected true or false',
        },
      ],
    });
  });

  it('refuses a choose-one answer that is not an option', () => {
    assert.deepEqual(problemsFor({ ...GOOD, format: 'XML' }), [
      'question "format" (questions[0]): expected one option from "JSON", "CSV", "plain text", found "XML"',
    ]);
    assert.deepEqual(problemsFor({ ...GOOD, format: ['CSV'] }), [
      'question "format" (questions[0]): expected one option from "JSON", "CSV", "plain text", found an array ["CSV"]',
    ]);
  });

  it('refuses an empty choose-many answer, or one with a stranger in it', () => {
    assert.deepEqual(problemsFor({ ...GOOD, targets: [] }), [
      'question "targets" (questions[1]): expected a non-empty array of options from "linux", "macos", "windows", found an empty array',
    ]);
    assert.deepEqual(problemsFor({ ...GOOD, targets: ['linux', 'bsd'] }), [
      'question "targets" (questions[1]): expected a non-empty array of options from "linux", "macos", "windows", found "bsd" in an array ["linux","bsd"]',
    ]);
    assert.deepEqual(problemsFor({ ...GOOD, targets: 'linux' }), [
      'question "targets" (questions[1]): expected a non-empty array of options from "linux", "macos", "windows", found "linux"',
    ]);
  });

  it('refuses a free-write answer that is not a string', () => {
    assert.deepEqual(problemsFor({ ...GOOD, notes: true }), [
      'question "notes" (questions[2]): expected a string, found true',
    ]);
  });

  it('refuses a yes-no answer that is not a boolean', () => {
    assert.deepEqual(problemsFor({ ...GOOD, ship: 'yes' }), [
      'question "ship" (questions[3]): expected true or false, found "yes"',
    ]);
  });

  it('refuses an answer to a question the batch does not have', () => {
    const built = buildAnswerFile(batch(), { ...GOOD, colour: 'blue' });
    assert.deepEqual(built, {
      ok: false,
      error: [
        {
          questionId: 'colour',
          message:
            'answer given for "colour", which is not a question of batch 4 (its ids: "format", "targets", "notes", "ship")',
        },
      ],
    });
  });

  it('lists every refusal at once, in question order', () => {
    const built = buildAnswerFile(batch(), {
      extra: 1 as unknown as Answer,
      ship: 0 as unknown as Answer,
    });
    assert.ok(!built.ok);
    assert.deepEqual(
      built.error.map((p) => [p.questionId, p.questionIndex]),
      [
        ['format', 0],
        ['targets', 1],
        ['notes', 2],
        ['ship', 3],
        ['extra', undefined],
      ],
    );
  });
});

describe('serializeAnswerFile', () => {
  it('writes 2-space JSON with a trailing newline', () => {
    const file = {
      seq: 1,
      answers: [{ id: 'a', type: 'yes-no' as const, prompt: 'ok?', answer: true }],
      questions: [],
    };
    assert.equal(
      serializeAnswerFile(file),
      '{\n  "seq": 1,\n  "answers": [\n    {\n      "id": "a",\n      "type": "yes-no",\n      "prompt": "ok?",\n      "answer": true\n    }\n  ],\n  "questions": []\n}\n',
    );
  });
});
