import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type HandOffRefusal,
  handOffRefusal,
  type TargetAccount,
} from '../../../src/core/batch/hand-off-refusal.js';

const ALICE = 'U0ALICE01';
const BOB = 'U0BOB0001';
const ACCOUNTS: readonly TargetAccount[] = ['person', 'bot', 'deactivated', 'not-found', 'unknown'];

describe('handOffRefusal', () => {
  test('a person with an active account whom the allow list lets answer may be handed the batch', () => {
    assert.equal(
      handOffRefusal({ from: ALICE, to: BOB, account: 'person', allowed: true }),
      undefined,
    );
  });

  test('every target is refused but an active person the allow list lets answer', () => {
    const cases: [TargetAccount, boolean, HandOffRefusal | undefined][] = [
      ['person', true, undefined],
      ['person', false, { kind: 'not-allowed' }],
      ['bot', true, { kind: 'cannot-answer', account: 'bot' }],
      ['deactivated', true, { kind: 'cannot-answer', account: 'deactivated' }],
      ['not-found', true, { kind: 'cannot-answer', account: 'not-found' }],
      ['unknown', true, { kind: 'cannot-answer', account: 'unknown' }],
    ];
    for (const [account, allowed, expected] of cases) {
      const refusal = handOffRefusal({ from: ALICE, to: BOB, account, allowed });
      assert.deepEqual(refusal, expected, `${account}, allowed: ${allowed}`);
    }
  });

  test('the account is named before the allow list: no allow list makes a deactivated account answer', () => {
    for (const account of ACCOUNTS.filter((a) => a !== 'person')) {
      const refusal = handOffRefusal({ from: ALICE, to: BOB, account, allowed: false });
      assert.deepEqual(refusal, { kind: 'cannot-answer', account });
    }
  });

  test('handing a batch to oneself is refused first, whatever Slack says of the account', () => {
    for (const account of ACCOUNTS) {
      for (const allowed of [true, false]) {
        const refusal = handOffRefusal({ from: ALICE, to: ALICE, account, allowed });
        assert.deepEqual(refusal, { kind: 'self' }, `${account}, allowed: ${allowed}`);
      }
    }
  });
});
