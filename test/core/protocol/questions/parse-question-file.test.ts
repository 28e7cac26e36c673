import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQuestionFile } from '../../../../src/core/protocol/questions/parse-question-file.js';

const yesNo = { id: 'ship', type: 'yes-no', prompt: 'Ship it?' };

describe('parseQuestionFile', () => {
  it('returns the batch, its questions and the file object exactly as read', () => {
    const file = {
      seq: 3,
      agent: { name: 'claude-code' },
      questions: [
        {
          ...yesNo,
          hint: ['a', 1],
          preview: { type: 'markdown', content: '# Plan', theme: 'dark' },
        },
      ],
    };
    const parsed = parseQuestionFile(JSON.stringify(file), '/runs/r/qa/q-out-003.json');
    assert.deepEqual(parsed, {
      ok: true,
      value: { seq: 3, questions: file.questions, source: file },
    });
  });

  it('adds no options key to a question written without one', () => {
    const parsed = parseQuestionFile(
      JSON.stringify({ seq: 1, questions: [yesNo] }),
      'q-out-001.json',
    );
    assert.ok(parsed.ok);
    assert.equal('options' in (parsed.value.questions[0] ?? {}), false);
    assert.equal('preview' in (parsed.value.questions[0] ?? {}), false);
  });

  it('reads the seq from the file name in decimal, never octal', () => {
    const text = JSON.stringify({ seq: 10, questions: [yesNo] });
    assert.equal(parseQuestionFile(text, 'qa/q-out-010.json').ok, true);
    const wrong = parseQuestionFile(
      JSON.stringify({ seq: 8, questions: [yesNo] }),
      'q-out-010.json',
    );
    assert.deepEqual(wrong, {
      ok: false,
      error: {
        file: 'q-out-010.json',
        problems: [
          { path: 'seq', message: 'expected 10 to match the file name q-out-010.json, found 8' },
        ],
      },
    });
  });

  it('skips the name check for names that are not q-out names', () => {
    const text = JSON.stringify({ seq: 5, questions: [yesNo] });
    assert.equal(parseQuestionFile(text, 'draft.json').ok, true);
    assert.equal(parseQuestionFile(text, 'q-answers-001.json').ok, true);
  });

  it('does not double a bad seq with a name mismatch', () => {
    // beyond 2^53 the number cannot be held exactly, so it is no valid seq at all
    const text = `{ "seq": 9007199254740993, "questions": [${JSON.stringify(yesNo)}] }`;
    const parsed = parseQuestionFile(text, 'q-out-001.json');
    assert.ok(!parsed.ok);
    assert.deepEqual(
      parsed.error.problems.map((p) => p.path),
      ['seq'],
    );
  });

  it('reports every problem in one pass, in reading order', () => {
    const parsed = parseQuestionFile(
      JSON.stringify({
        seq: 0,
        questions: [
          { id: 'a', type: 'choose-one', prompt: '' },
          { id: 'a', type: 'free-write', prompt: 'Why?', options: ['x'] },
        ],
      }),
      'q-out-001.json',
    );
    assert.ok(!parsed.ok);
    assert.deepEqual(parsed.error.problems, [
      { path: 'seq', message: 'expected a positive integer, found 0' },
      { path: 'questions[0].prompt', message: 'expected a non-empty string, found ""' },
      {
        path: 'questions[0].options',
        message:
          '"options" is missing; expected a non-empty array of option strings for a choose-one question',
      },
      {
        path: 'questions[1].id',
        message: 'expected a unique id, found "a" again (same as questions[0].id)',
      },
      {
        path: 'questions[1].options',
        message:
          'expected no options for a free-write question (omit "options" or leave it empty), found an array ["x"]',
      },
    ]);
  });

  it('still reports duplicate options when the type is unknown', () => {
    const parsed = parseQuestionFile(
      JSON.stringify({
        seq: 1,
        questions: [{ id: 'a', type: 'pick', prompt: 'p', options: ['x', 'x'] }],
      }),
      'q-out-001.json',
    );
    assert.ok(!parsed.ok);
    assert.deepEqual(
      parsed.error.problems.map((p) => p.path),
      ['questions[0].type', 'questions[0].options[1]'],
    );
  });

  it('names the file it was given in the error', () => {
    const parsed = parseQuestionFile('{', 'some/where/q-out-001.json');
    assert.ok(!parsed.ok);
    assert.equal(parsed.error.file, 'some/where/q-out-001.json');
    assert.deepEqual(parsed.error.problems, [
      {
        path: '',
        message:
          'invalid JSON at line 1, column 2: expected a property name in double quotes, found the end of the file',
      },
    ]);
  });
});
