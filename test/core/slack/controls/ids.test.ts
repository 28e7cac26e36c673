import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as ids from '../../../../src/core/slack/controls/ids.js';

describe('block ids', () => {
  it('round-trip key, revision, question index and role', () => {
    assert.equal(ids.questionBlockId('k.1', 'abcd1234', 7), 'o7|k.1|abcd1234|q7');
    assert.deepEqual(ids.parseBlockId('o7|k.1|abcd1234|q7'), {
      key: 'k.1',
      revision: 'abcd1234',
      questionIndex: 7,
    });
    assert.deepEqual(ids.parseBlockId(ids.questionBlockId('k.1', 'abcd1234', 0, 'preview')), {
      key: 'k.1',
      revision: 'abcd1234',
      questionIndex: 0,
      role: 'preview',
    });
    assert.deepEqual(ids.parseBlockId(ids.submitBlockId('k.1', 'abcd1234')), {
      key: 'k.1',
      revision: 'abcd1234',
      submit: true,
    });
  });

  it('read a key containing the separator', () => {
    assert.equal(ids.parseBlockId(ids.questionBlockId('a|b', 'r', 1))?.key, 'a|b');
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
      assert.equal(ids.parseBlockId(id), undefined, id);
    }
  });
});

describe('iterations on block ids', () => {
  it('stamp a relay id, and stamp it again with a new iteration', () => {
    const id = ids.questionBlockId('k.1', 'abcd1234', 2, 'options');
    const once = ids.withIteration(id, 7);
    assert.equal(once, 'o7|k.1|abcd1234|q2.options|i7');
    assert.deepEqual(ids.parseBlockId(once), {
      key: 'k.1',
      revision: 'abcd1234',
      questionIndex: 2,
      role: 'options',
      iteration: 7,
    });
    assert.equal(ids.withIteration(once, 8), 'o7|k.1|abcd1234|q2.options|i8');
    assert.deepEqual(ids.parseBlockId(ids.withIteration(ids.submitBlockId('k', 'r'), 0)), {
      key: 'k',
      revision: 'r',
      submit: true,
      iteration: 0,
    });
  });

  it('leave ids the relay did not make as they are', () => {
    for (const id of ['abc', 'x7|k|r|q1', 'o7|k|r|qq']) assert.equal(ids.withIteration(id, 3), id);
  });

  it('read unstamped ids of messages posted before iterations as having none', () => {
    assert.equal(ids.parseBlockId('o7|k|r|q1')?.iteration, undefined);
    assert.equal(ids.parseBlockId('o7|k|r|q1|i01'), undefined, 'no leading zeros');
    assert.equal(ids.parseBlockId('o7|k|r|q1|i1234567890'), undefined, 'at most 9 digits');
  });

  it("stay far below Slack's 255 characters for the longest id the renderer makes", () => {
    const key = `${'A'.repeat(12)}.${'9'.repeat(16)}`;
    const id = ids.withIteration(
      ids.questionBlockId(key, 'f'.repeat(8), 999_999, 'preview'),
      999_999_999,
    );
    assert.ok(id.length < 80, `${id.length}`);
  });
});

describe('action ids', () => {
  it('carry the kind before the first colon', () => {
    assert.equal(ids.actionId(ids.ACTION_KINDS.yesNo, 3, 'yes'), 'o7.yes-no:3:yes');
    assert.equal(ids.actionKindOf('o7.yes-no:3:yes'), ids.ACTION_KINDS.yesNo);
    assert.equal(ids.actionKindOf('o7.submit'), ids.ACTION_KINDS.submit);
    assert.equal(ids.actionKindOf('o7.unknown:1'), undefined);
    assert.equal(ids.actionKindOf('other'), undefined);
  });

  it('match the listener patterns', () => {
    assert.ok(ids.CONTROL_ACTION_PATTERN.test('o7.choose-many:2'));
    assert.ok(ids.CONTROL_ACTION_PATTERN.test('o7.submit'));
    assert.ok(!ids.CONTROL_ACTION_PATTERN.test('other.choose'));
    assert.ok(!ids.CONTROL_ACTION_PATTERN.test('o7.choosey'));
    for (const kind of Object.values(ids.ACTION_KINDS)) {
      assert.ok(ids.CONTROL_ACTION_PATTERN.test(kind), kind);
    }
    assert.ok(ids.EXTERNAL_SELECT_ACTION_PATTERN.test('o7.choose:2'));
    assert.ok(ids.EXTERNAL_SELECT_ACTION_PATTERN.test('o7.choose-many:2'));
    assert.ok(!ids.EXTERNAL_SELECT_ACTION_PATTERN.test('o7.submit'));
  });
});
