import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  REQUEST_TIMESTAMP_WINDOW_SEC,
  requestTimestampProblem,
} from '../../../src/core/inbound/request-timestamp.js';

const NOW_MS = 1_800_000_000_500;
const nowSec = Math.floor(NOW_MS / 1000);
const stamp = (offsetSec: number) => String(nowSec + offsetSec);

describe('requestTimestampProblem', () => {
  it('accepts timestamps up to five minutes either side of the clock', () => {
    for (const offset of [0, 1, -1, 299, -299, 300, -300]) {
      assert.equal(requestTimestampProblem(stamp(offset), NOW_MS), undefined, `offset ${offset}`);
    }
    assert.equal(REQUEST_TIMESTAMP_WINDOW_SEC, 300);
  });

  it('refuses a request stamped ten minutes in the future (Bolt only refuses old ones)', () => {
    assert.equal(
      requestTimestampProblem(stamp(600), NOW_MS),
      "X-Slack-Request-Timestamp is 600 s in the future; requests more than 300 s from this machine's clock are refused as replays (if every request is refused, check the clock's time sync)",
    );
    assert.match(String(requestTimestampProblem(stamp(301), NOW_MS)), /301 s in the future/);
  });

  it('refuses a stale request', () => {
    assert.match(String(requestTimestampProblem(stamp(-301), NOW_MS)), /301 s in the past/);
    assert.match(String(requestTimestampProblem('0', NOW_MS)), /in the past/);
  });

  it('refuses a missing or non-numeric header', () => {
    assert.equal(
      requestTimestampProblem(undefined, NOW_MS),
      'X-Slack-Request-Timestamp is missing',
    );
    assert.equal(requestTimestampProblem('', NOW_MS), 'X-Slack-Request-Timestamp is missing');
    for (const text of ['1.5e9', `${nowSec}.5`, '-1', ' 1', 'soon', '1'.repeat(400)]) {
      assert.equal(
        requestTimestampProblem(text, NOW_MS),
        'X-Slack-Request-Timestamp is not a whole number of seconds',
        text.slice(0, 20),
      );
    }
  });
});
