import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createSlackReachability, isUnreachable } from '../../src/ops/slack-reachability.js';
import type { WebApiOutcome } from '../../src/slack/transport/observed-fetch.js';
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

/** What two outages log: one line as each begins and one as it ends. */
const TWO_OUTAGES = [
  'Slack cannot be reached; the relay keeps trying and logs once it is back',
  'Slack can be reached again',
  'Slack cannot be reached; the relay keeps trying and logs once it is back',
  'Slack can be reached again',
];

describe('isUnreachable', () => {
  test('no answer, 5xx and Slack saying it is in trouble are down; a refusal or a rate limit is an answer', () => {
    assert.equal(isUnreachable(post({ kind: 'network', message: 'fetch failed' })), true);
    assert.equal(isUnreachable(post({ kind: 'http-error', status: 503 })), true);
    assert.equal(isUnreachable(post({ kind: 'http-error', status: 500 })), true);
    assert.equal(isUnreachable(post({ kind: 'http-error', status: 404 })), false);
    for (const code of [
      'internal_error',
      'fatal_error',
      'service_unavailable',
      'request_timeout',
    ]) {
      assert.equal(isUnreachable(post({ kind: 'refused', code })), true, code);
    }
    // permanent refusals stay what they are: Slack answered, and no probe makes them pass
    for (const code of ['not_in_channel', 'invalid_auth', 'msg_too_long', 'ratelimited']) {
      assert.equal(isUnreachable(post({ kind: 'refused', code })), false, code);
    }
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
      reachability.report(post({ kind: 'refused', code: 'not_in_channel' }));
    }
    assert.deepEqual(
      lines.map((l) => l.msg),
      TWO_OUTAGES,
    );
    assert.equal(lines[0]?.problem, 'connect ECONNREFUSED 127.0.0.1:9');
  });
});

/** Timers a test fires by hand: what is due, and a way to run it and what it started. */
function manualTimers() {
  const due: { fn: () => void; ms: number }[] = [];
  return {
    setTimer(fn: () => void, ms: number) {
      const timer = { fn, ms };
      due.push(timer);
      return {
        cancel: () => {
          const at = due.indexOf(timer);
          if (at >= 0) due.splice(at, 1);
        },
      };
    },
    /** The waits set and not yet fired or cancelled. */
    pending: () => due.map((t) => t.ms),
    /** Fires the first timer and lets what it started (a probe) finish. */
    async fire() {
      const timer = due.shift();
      assert.ok(timer, 'a timer is set');
      timer.fn();
      for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe('probing while Slack is down', () => {
  const down = post({ kind: 'http-error', status: 500 });
  const probed = (kind: 'ok' | 'down'): WebApiOutcome =>
    kind === 'ok'
      ? { method: 'auth.test', kind: 'ok' }
      : { method: 'auth.test', kind: 'http-error', status: 500 };

  function probing(answering: () => boolean) {
    const { log, lines } = capture();
    const timers = manualTimers();
    const state = { probes: 0, answer: 'down' as 'ok' | 'down', news: [] as string[] };
    const reachability = createSlackReachability({
      log,
      waiting: () => 0,
      probeEveryMs: 2000,
      setTimer: timers.setTimer,
      probe: async () => {
        state.probes += 1;
        return probed(state.answer);
      },
    });
    reachability.follow({
      answering: () => {
        state.news.push('answering');
        return answering();
      },
      back: () => state.news.push('back'),
    });
    return { reachability, timers, state, lines };
  }

  test('probes at a steady interval only while down, and stops when Slack is back', async () => {
    // a run is tried at each answer: only a call of the relay's can say posts go through
    const { reachability, timers, state } = probing(() => true);
    assert.deepEqual(timers.pending(), [], 'no probe while Slack answers');
    reachability.report(down);
    reachability.report(down);
    for (let probe = 1; probe <= 3; probe += 1) {
      assert.deepEqual(timers.pending(), [2000], 'one probe due, at the same interval each time');
      await timers.fire();
      assert.equal(state.probes, probe);
    }
    assert.deepEqual(state.news, [], 'no news while the probe gets no answer');
    state.answer = 'ok';
    await timers.fire();
    await timers.fire();
    assert.deepEqual(state.news, ['answering', 'answering']);
    assert.equal(reachability.reachable, false, 'the probe alone does not say posts go through');
    reachability.report(post({ kind: 'ok' }));
    assert.equal(reachability.reachable, true);
    assert.deepEqual(state.news, ['answering', 'answering', 'back']);
    assert.deepEqual(timers.pending(), [], 'no probe once Slack is back');
    reachability.close();
  });

  test('a probe answered with nothing to try means Slack is back', async () => {
    const { reachability, timers, state, lines } = probing(() => false);
    reachability.report(down);
    state.answer = 'ok';
    await timers.fire();
    assert.equal(reachability.reachable, true);
    assert.deepEqual(state.news, ['answering', 'back']);
    assert.deepEqual(
      lines.map((l) => l.msg),
      [
        'Slack cannot be reached; the relay keeps trying and logs once it is back',
        'Slack can be reached again',
      ],
    );
    assert.deepEqual(timers.pending(), []);
  });

  test("another method answered while posts fail is the probe's news: an outage still, while a post is tried", () => {
    let posting = true;
    const { reachability, state, lines } = probing(() => posting);
    reachability.report(down);
    // Socket Mode opens a connection while chat.postMessage still fails
    reachability.report({ method: 'apps.connections.open', kind: 'ok' });
    assert.equal(reachability.reachable, false, 'posts were not said to go through');
    reachability.report(down);
    reachability.report(post({ kind: 'ok' }));
    assert.equal(reachability.reachable, true, 'the method that failed went through');
    assert.deepEqual(state.news, ['answering', 'back']);
    // another outage, and this time nothing waits to be tried: another method's answer ends it
    posting = false;
    reachability.report(down);
    reachability.report({ method: 'chat.update', kind: 'ok' });
    assert.equal(reachability.reachable, true);
    assert.deepEqual(
      lines.map((l) => l.msg),
      TWO_OUTAGES,
      'each outage one line each way, the connection opening in between not one of them',
    );
    reachability.close();
  });

  test('close stops the probe', async () => {
    const { reachability, timers } = probing(() => true);
    reachability.report(down);
    assert.deepEqual(timers.pending(), [2000]);
    reachability.close();
    assert.deepEqual(timers.pending(), []);
  });
});
