import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  answerFileName,
  parseQaFileName,
  questionFileName,
} from '../../../src/core/protocol/run-folder.js';

test('parses canonical names, decimal even with a leading zero', () => {
  assert.deepEqual(parseQaFileName('q-out-001.json'), { kind: 'question', seq: 1 });
  assert.deepEqual(parseQaFileName('q-out-010.json'), { kind: 'question', seq: 10 });
  assert.deepEqual(parseQaFileName('q-answers-999.json'), { kind: 'answer', seq: 999 });
  assert.deepEqual(parseQaFileName('q-out-1000.json'), { kind: 'question', seq: 1000 });
  assert.deepEqual(parseQaFileName('q-answers-123456.json'), { kind: 'answer', seq: 123456 });
});

test('non-canonical names like q-out-0001.json are not protocol files', () => {
  // q-out-0001.json used to parse as seq 1 and then be looked up as q-out-001.json
  for (const name of [
    'q-out-0001.json',
    'q-answers-0010.json',
    'q-out-01000.json',
    'q-out-01.json',
    'q-out-1.json',
    'q-out-000.json',
    'q-out-001.json.tmp',
    '.q-out-001.json',
    `q-out-${'9'.repeat(17)}.json`,
  ]) {
    assert.equal(parseQaFileName(name), undefined, name);
  }
});

test('every name we write parses back to its seq', () => {
  for (const seq of [1, 9, 10, 99, 100, 999, 1000, 12345]) {
    assert.deepEqual(parseQaFileName(questionFileName(seq)), { kind: 'question', seq });
    assert.deepEqual(parseQaFileName(answerFileName(seq)), { kind: 'answer', seq });
  }
});
