import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ACTION_ID_PATTERN,
  ACTION_KINDS,
  actionId,
  actionKindOf,
  EXTERNAL_SELECT_ACTION_PATTERN,
  parseBlockId,
  questionBlockId,
  submitBlockId,
} from '../../../src/core/slack/ids.js';

describe('block ids', () => {
  it('round-trip key, revision, question index and role', () => {
    assert.equal(questionBlockId('k.1', 'abcd1234', 7), 'o7|k.1|abcd1234|q7');
    assert.deepEqual(parseBlockId('o7|k.1|abcd1234|q7'), {
      key: 'k.1',
      revision: 'abcd1234',
      questionIndex: 7,
    });
    assert.deepEqual(parseBlockId(questionBlockId('k.1', 'abcd1234', 0, 'preview')), {
      key: 'k.1',
      revision: 'abcd1234',
      questionIndex: 0,
      role: 'preview',
    });
    assert.deepEqual(parseBlockId(submitBlockId('k.1', 'abcd1234')), {
      key: 'k.1',
      revision: 'abcd1234',
      submit: true,
    });
  });

  it('read a key containing the separator', () => {
    assert.equal(parseBlockId(questionBlockId('a|b', 'r', 1))?.key, 'a|b');
  });

  it('reject ids the relay did not make', () => {
    for (const id of [
      '',
      'abc',
      'o7|k|r',
      'x7|k|r|q1',
      'o7|k|r|qq',
      'o7|k|r|q1.other',
      'o7||r|q1',
    ]) {
      assert.equal(parseBlockId(id), undefined, id);
    }
  });
});

describe('action ids', () => {
  it('carry the kind before the first colon', () => {
    assert.equal(actionId(ACTION_KINDS.yesNo, 3, 'yes'), 'o7.yes-no:3:yes');
    assert.equal(actionKindOf('o7.yes-no:3:yes'), ACTION_KINDS.yesNo);
    assert.equal(actionKindOf('o7.submit'), ACTION_KINDS.submit);
    assert.equal(actionKindOf('o7.unknown:1'), undefined);
    assert.equal(actionKindOf('other'), undefined);
  });

  it('match the listener patterns', () => {
    assert.ok(ACTION_ID_PATTERN.test('o7.choose-many:2'));
    assert.ok(!ACTION_ID_PATTERN.test('other.choose'));
    assert.ok(EXTERNAL_SELECT_ACTION_PATTERN.test('o7.choose:2'));
    assert.ok(EXTERNAL_SELECT_ACTION_PATTERN.test('o7.choose-many:2'));
    assert.ok(!EXTERNAL_SELECT_ACTION_PATTERN.test('o7.submit'));
  });
});
