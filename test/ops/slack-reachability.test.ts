import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createSlackReachability, isUnreachable } from '../../src/ops/slack-reachability.js';
import type { WebApiOutcome } from '../../src/slack/observed-fetch.js';
import { captureLog } from '../support/log-capture.js';

function capture() {
  const { log, records: lines } = captureLog('debug');
  return { lines, log };
}

/** An outcome of chat.postMessage. */
type Outcome = WebApiOutcome extends infer O
  ? O extends unknown
    ? Omit<O, 'method'>
    : never
  : never;
const post = (outcome: Outcome) => ({ method: 'chat.postMessage', ...outcome }) as WebApiOutcome;

describe('isUnreachable', () => {
  test('no answer and 5xx are unreachable; Slack refusing or rate-limiting is an answer', () => {
    assert.equal(isUnreachable(post({ kind: 'network', message: 'fetch failed' })), true);
    assert.equal(isUnreachable(post({ kind: 'http-error', status: 503 })), true);
    assert.equal(isUnreachable(post({ kind: 'http-error', status: 404 })), false);
    assert.equal(isUnreachable(post({ kind: 'refused', code: 'internal_error' })), false);
    assert.equal(isUnreachable(post({ kind: 'rate-limited', retryAfterSec: 3 })), false);
    assert.equal(isUnreachable(post({ kind: 'ok' })), false);
  });
});

describe('createSlackReachability', () => {
  test('an outage of many failed requests is one warning, and its end one line with what waits', () => {
    const { lines, log } = capture();
    let clock = 1_000;
    const reachability = createSlackReachability({ log, waiting: () => 3, now: () => clock });
    reachability.report(post({ kind: 'ok' }));
    assert.equal(lines.length, 0, 'nothing to say while Slack answers');
    for (let i = 0; i < 10; i += 1) {
      reachability.report(post({ kind: 'http-error', status: 503 }));
      clock += 500;
      reachability.report(post({ kind: 'network', message: 'fetch failed' }));
      clock += 500;
    }
    assert.equal(reachability.reachable, false);
    reachability.report(post({ kind: 'ok' }));
    reachability.report(post({ kind: 'ok' }));
    assert.equal(reachability.reachable, true);
    assert.deepEqual(
      lines.map((l) => [l.level, l.msg, l.problem, l.downForMs, l.batchesWaiting]),
      [
        [
          40,
          'Slack cannot be reached; the relay keeps trying and logs once it is back',
          'HTTP 503',
          undefined,
          undefined,
        ],
        [30, 'Slack can be reached again', undefined, 10_000, 3],
      ],
    );
  });

  test('each outage is told again', () => {
    const { lines, log } = capture();
    const reachability = createSlackReachability({ log, waiting: () => 0 });
    for (let round = 0; round < 2; round += 1) {
      reachability.report(post({ kind: 'network', message: 'connect ECONNREFUSED 127.0.0.1:9' }));
      reachability.report(post({ kind: 'refused', code: 'internal_error' }));
    }
    assert.deepEqual(
      lines.map((l) => l.msg),
      [
        'Slack cannot be reached; the relay keeps trying and logs once it is back',
        'Slack can be reached again',
        'Slack cannot be reached; the relay keeps trying and logs once it is back',
        'Slack can be reached again',
      ],
    );
    assert.equal(lines[0]?.problem, 'connect ECONNREFUSED 127.0.0.1:9');
  });
});
