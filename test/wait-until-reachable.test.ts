import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { StopRequested } from '../src/stop-signals.js';
import { type TryOutcome, waitUntilReachable } from '../src/wait-until-reachable.js';
import { captureLog, LEVEL } from './support/log-capture.js';

/** Tries that fail with the given reasons, in turn, then succeed with `'up'`. */
function failing(...reasons: string[]) {
  const left = [...reasons];
  let tries = 0;
  return {
    tries: () => tries,
    async tryOnce(): Promise<TryOutcome<string>> {
      tries += 1;
      const reason = left.shift();
      return reason === undefined ? { ok: true, value: 'up' } : { ok: false, reason };
    },
  };
}

const QUICK = { firstRetryMs: 1, mostRetryMs: 4 };

describe('waitUntilReachable', () => {
  test('a service that answers at once: its value, and not a line in the log', async () => {
    const { log, records } = captureLog('debug');
    const service = failing();
    const value = await waitUntilReachable({
      ...service,
      log,
      service: 'Slack',
      where: {},
      hint: '',
    });
    assert.equal(value, 'up');
    assert.equal(service.tries(), 1);
    assert.deepEqual(records, []);
  });

  test('an outage at start is one warning when the wait starts, the tries at debug, and one line when it is through, with how long it took', async () => {
    const { log, records } = captureLog('debug');
    const service = failing('ECONNREFUSED', 'ECONNREFUSED', 'ETIMEDOUT', 'ECONNREFUSED');
    let clock = 1000;
    const value = await waitUntilReachable({
      tryOnce: async () => {
        clock += 250;
        return service.tryOnce();
      },
      log,
      service: 'Redis',
      where: { redis: '127.0.0.1:6390' },
      hint: 'Check that Redis is running.',
      backOff: QUICK,
      now: () => clock,
    });
    assert.equal(value, 'up');
    assert.deepEqual(
      records.map((r) => [r.level, r.msg]),
      [
        [
          LEVEL.warn,
          'Redis cannot be reached (ECONNREFUSED); waiting for it, trying again with a growing pause (at most 4 ms; each try is a debug line). Check that Redis is running.',
        ],
        [LEVEL.debug, 'Redis still cannot be reached'],
        [LEVEL.debug, 'Redis still cannot be reached'],
        [LEVEL.debug, 'Redis still cannot be reached'],
        [LEVEL.info, 'Redis can be reached now'],
      ],
    );
    assert.equal(records[0]?.redis, '127.0.0.1:6390');
    assert.deepEqual(
      records.slice(1, 4).map((r) => [r.attempt, r.reason, r.retryInMs]),
      [
        [2, 'ECONNREFUSED', 2],
        [3, 'ETIMEDOUT', 4],
        [4, 'ECONNREFUSED', 4],
      ],
    );
    assert.equal(records[4]?.attempts, 5);
    assert.equal(records[4]?.waitedMs, 5 * 250);
  });

  test('a failure waiting cannot fix ends the wait with its error', async () => {
    const refused = new Error('token refused');
    await assert.rejects(
      waitUntilReachable({
        tryOnce: async () => {
          throw refused;
        },
        log: captureLog().log,
        service: 'Slack',
        where: {},
        hint: '',
      }),
      (error) => error === refused,
    );
  });

  test('a stop gives the wait up during a pause and during a try that never ends, with the stop as the reason', async () => {
    const { log } = captureLog('debug');
    const duringPause = new AbortController();
    const pausing = waitUntilReachable({
      ...failing('ECONNREFUSED'),
      log,
      service: 'Slack',
      where: {},
      hint: '',
      // a pause no test could wait out
      backOff: { firstRetryMs: 3_600_000 },
      signal: duringPause.signal,
    });
    duringPause.abort(new StopRequested('SIGTERM'));
    await assert.rejects(pausing, (error) => error instanceof StopRequested);

    const duringTry = new AbortController();
    const trying = waitUntilReachable({
      tryOnce: () => new Promise<never>(() => {}),
      log,
      service: 'Redis',
      where: {},
      hint: '',
      signal: duringTry.signal,
    });
    duringTry.abort(new StopRequested('SIGINT'));
    await assert.rejects(
      trying,
      (error) => error instanceof StopRequested && error.signal === 'SIGINT',
    );

    const before = new AbortController();
    before.abort(new StopRequested('SIGTERM'));
    const tries = failing();
    await assert.rejects(
      waitUntilReachable({
        ...tries,
        log,
        service: 'Slack',
        where: {},
        hint: '',
        signal: before.signal,
      }),
      StopRequested,
    );
    assert.equal(tries.tries(), 0, 'a stop asked for before the wait tries nothing');
  });
});
