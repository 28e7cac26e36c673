import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Question } from '../../../../src/core/protocol/questions/question.js';
import {
  modalMetadata,
  modalMetadataKey,
  parseModalMetadata,
} from '../../../../src/core/slack/controls/modal-metadata.js';

const LONG_ID = 'x'.repeat(2990);
const questions: Question[] = [
  { id: 'short', type: 'yes-no', prompt: 'One?' },
  { id: LONG_ID, type: 'free-write', prompt: 'Two?' },
];

test('a short question id round-trips, with or without the questions', () => {
  const text = modalMetadata({ key: 'k', revision: 'r', questionId: 'short' }, 0);
  assert.equal(modalMetadataKey(text), 'k');
  assert.deepEqual(parseModalMetadata(text, []), { key: 'k', revision: 'r', questionId: 'short' });
});

test('long question ids: the key is readable first, then the batch questions give the id back', () => {
  const text = modalMetadata({ key: 'k', revision: 'r', questionId: LONG_ID }, 1);
  assert.ok(text.length <= 3000);
  assert.equal(modalMetadataKey(text), 'k');
  assert.equal(parseModalMetadata(text, []), undefined, 'no questions, no id');
  assert.deepEqual(parseModalMetadata(text, questions), {
    key: 'k',
    revision: 'r',
    questionId: LONG_ID,
  });
});

test('metadata that is not ours gives undefined', () => {
  for (const text of ['', 'not json', '[]', 'null', '{"key":1}']) {
    assert.equal(modalMetadataKey(text), undefined, text);
    assert.equal(parseModalMetadata(text, questions), undefined, text);
  }
});
