import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatAge } from '../../../../src/core/slack/text/format-age.js';

const now = new Date('2026-03-01T12:00:00Z');
const ago = (ms: number) => formatAge(new Date(now.getTime() - ms), now);
const MIN = 60_000;

describe('formatAge', () => {
  test('rounds down to the largest useful units', () => {
    assert.equal(ago(0), 'less than a minute');
    assert.equal(ago(59_999), 'less than a minute');
    assert.equal(ago(MIN), '1 min');
    assert.equal(ago(12 * MIN + 59_000), '12 min');
    assert.equal(ago(60 * MIN), '1 h');
    assert.equal(ago(185 * MIN), '3 h 5 min');
    assert.equal(ago(24 * 60 * MIN), '1 d');
    assert.equal(ago((2 * 24 + 4) * 60 * MIN + 30 * MIN), '2 d 4 h');
  });

  test('a time in the future or an invalid date reads as just now', () => {
    assert.equal(ago(-5 * MIN), 'less than a minute');
    assert.equal(formatAge(new Date('nonsense'), now), 'less than a minute');
  });
});
