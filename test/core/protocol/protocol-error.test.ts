import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sortProblems } from '../../../src/core/protocol/problem-order.js';
import { formatJsonPath, formatProtocolError } from '../../../src/core/protocol/protocol-error.js';

describe('formatProtocolError', () => {
  it('counts problems, lists each with its path, and ends with how to fix a question file', () => {
    const text = formatProtocolError({
      file: 'runs/r1/qa/q-out-002.json',
      problems: [
        { path: '', message: 'expected a JSON object, found an empty file' },
        { path: 'questions[1].options[2]', message: 'expected a non-empty string, found ""' },
      ],
    });
    assert.equal(
      text,
      [
        'runs/r1/qa/q-out-002.json: 2 problems',
        '  - at (whole file): expected a JSON object, found an empty file',
        '  - at questions[1].options[2]: expected a non-empty string, found ""',
        'Fix the file and save it again; the relay re-reads it.',
      ].join('\n'),
    );
  });

  it('says "1 problem" and gives answer files their own advice', () => {
    const text = formatProtocolError({
      file: 'qa\\q-answers-001.json',
      problems: [{ path: 'seq', message: 'expected a positive integer, found 0' }],
    });
    assert.equal(
      text,
      [
        'qa\\q-answers-001.json: 1 problem',
        '  - at seq: expected a positive integer, found 0',
        'Fix the file so it follows the Q&A file protocol and answers the questions in its q-out file.',
      ].join('\n'),
    );
  });
});

describe('formatJsonPath', () => {
  it('writes keys with dots, indices in brackets, and odd keys quoted', () => {
    assert.equal(formatJsonPath([]), '');
    assert.equal(formatJsonPath(['seq']), 'seq');
    assert.equal(formatJsonPath(['questions', 1, 'options', 2]), 'questions[1].options[2]');
    assert.equal(formatJsonPath(['questions', 0, 'preview', 'type']), 'questions[0].preview.type');
    assert.equal(formatJsonPath(['a b', 'x-y']), '["a b"]["x-y"]');
  });
});

describe('sortProblems', () => {
  it('orders by question, then by field as files list them, containers before items', () => {
    const paths = [
      'questions[2].id',
      'questions[10].type',
      'questions[1].options[3]',
      'questions[1].preview.content',
      'questions[1].options',
      'questions[1].preview.type',
      'questions[1].zzz',
      'questions',
      'seq',
      '',
    ];
    const sorted = sortProblems(paths.map((path) => ({ path, message: path })));
    assert.deepEqual(
      sorted.map((p) => p.path),
      [
        '',
        'seq',
        'questions',
        'questions[1].options',
        'questions[1].options[3]',
        'questions[1].preview.type',
        'questions[1].preview.content',
        'questions[1].zzz',
        'questions[2].id',
        'questions[10].type',
      ],
    );
  });

  it('keeps problems at the same path in the order found', () => {
    const problems = [
      { path: 'seq', message: 'first' },
      { path: 'seq', message: 'second' },
    ];
    assert.deepEqual(sortProblems(problems), problems);
  });
});
