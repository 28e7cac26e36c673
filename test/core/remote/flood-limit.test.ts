import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Bucket, takeRequest } from '../../../src/core/remote/flood-limit.js';

const POLICY = { burst: 3, perSecond: 0.5 };

test('a burst is let through, the next is refused with when to come back, and time refills it', () => {
  let bucket: Bucket | undefined;
  const verdicts: (boolean | number)[] = [];
  for (let i = 0; i < 4; i += 1) {
    const verdict = takeRequest(bucket, 1000, POLICY);
    bucket = verdict.bucket;
    verdicts.push(verdict.allowed ? true : verdict.retryAfterSec);
  }
  assert.deepEqual(verdicts, [true, true, true, 2], 'one request back every 2 s');
  assert.equal(takeRequest(bucket, 2000, POLICY).allowed, false, '1 s later: half a request');
  const later = takeRequest(bucket, 3000, POLICY);
  assert.equal(later.allowed, true, '2 s later: one');
  // a long quiet spell fills it to the burst, no further
  const quiet = takeRequest(later.bucket, 1_000_000, POLICY);
  assert.deepEqual(quiet, { allowed: true, bucket: { left: 2, at: 1_000_000 } });
});

test('a flood that keeps coming stays refused; refusals cost nothing of the allowance', () => {
  let bucket: Bucket | undefined = { left: 0, at: 0 };
  for (let at = 0; at < 1900; at += 100) {
    const verdict = takeRequest(bucket, at, POLICY);
    assert.equal(verdict.allowed, false, `at ${at} ms`);
    bucket = verdict.bucket;
  }
  assert.equal(takeRequest(bucket, 2000, POLICY).allowed, true, 'allowed once 2 s have passed');
});
