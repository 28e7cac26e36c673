import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  parseCancellation,
  serializeCancellation,
} from '../../../src/core/envelope/ask-cancellation.js';

describe('cancelled.json', () => {
  it('round-trips who cancelled and when', () => {
    const cancellation = {
      seq: 1,
      cancelledBy: 'U0ALICE01',
      cancelledAt: '2026-05-01T10:00:00.000Z',
    };
    const text = serializeCancellation(cancellation);
    assert.ok(text.endsWith('}\n'));
    assert.deepEqual(parseCancellation(text), cancellation);
  });

  it('reads anything else as unknown, not as an error', () => {
    assert.equal(parseCancellation('{"seq": 1'), undefined);
    assert.equal(parseCancellation('{"seq": 1, "cancelledBy": 5}'), undefined);
  });
});
