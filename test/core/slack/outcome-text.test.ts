import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HandOffRefusal } from '../../../src/core/batch/hand-off-refusal.js';
import { explainHandOffRefusal } from '../../../src/core/slack/outcome-text.js';

describe('explainHandOffRefusal', () => {
  test('each refused hand-off says why and what to pick instead, each in its own words', () => {
    const cases: [HandOffRefusal, RegExp][] = [
      [{ kind: 'self' }, /to yourself; pick a teammate/],
      [{ kind: 'cannot-answer', account: 'bot' }, /bot or app.*pick a person/],
      [{ kind: 'cannot-answer', account: 'deactivated' }, /deactivated.*pick someone else/],
      [{ kind: 'cannot-answer', account: 'not-found' }, /no such user.*pick a teammate/],
      [{ kind: 'cannot-answer', account: 'unknown' }, /could not tell who.*try again/],
      [{ kind: 'not-allowed' }, /not on the allow list \(RELAY_ALLOWED_USERS\)/],
    ];
    for (const [refusal, words] of cases) assert.match(explainHandOffRefusal(refusal), words);
    const texts = new Set(cases.map(([refusal]) => explainHandOffRefusal(refusal)));
    assert.equal(texts.size, cases.length);
  });
});
