import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { batchKey, revisionOf } from '../../../src/core/batch/batch-key.js';

/** 12 base64url characters of the run's hash, a dot, the seq. */
const BLOCK_ID_KEY = /^[A-Za-z0-9_-]{12}\.\d+$/;

describe('batchKey', () => {
  test('the same run and seq give the same short key; another seq or run another key', () => {
    const key = batchKey('/srv/runs/a', 3);
    assert.equal(key, batchKey('/srv/runs/a', 3));
    assert.match(key, BLOCK_ID_KEY);
    assert.notEqual(key, batchKey('/srv/runs/a', 4));
    assert.notEqual(key, batchKey('/srv/runs/b', 3));
  });

  test('shared mode: the same run path on two machines gives two keys', () => {
    const onA = batchKey('/home/ci/runs/r1', 1, 'node-a');
    const onB = batchKey('/home/ci/runs/r1', 1, 'node-b');
    assert.notEqual(onA, onB);
    assert.notEqual(onA, batchKey('/home/ci/runs/r1', 1));
    assert.match(onA, BLOCK_ID_KEY);
  });

  test('a revision is the first 8 hex characters of a fingerprint', () => {
    assert.equal(revisionOf('0123456789abcdef'), '01234567');
  });
});
