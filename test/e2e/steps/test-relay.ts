// The relay under test, in this process: one per test, or started by the test itself.
import assert from 'node:assert/strict';
import { afterEach, beforeEach } from 'node:test';
import type { Level } from 'pino';
import { captureLog, type LogRecord } from '../../support/log-capture.js';
import {
  type Harness,
  type Mode,
  type RelayHarnessOptions,
  startRelayHarness,
} from '../../support/relay-harness.js';

/** Both ways the relay can receive interactions; the transport contract runs in each. */
export const MODES: readonly Mode[] = ['socket', 'http'];

/**
 * The one mode the other end-to-end scenarios run in: what they test does not depend on the
 * transport, which `transport-contract.test.ts` covers once for both.
 */
export const E2E_MODE: Mode = 'socket';

/** Slack answered every call with ok and every interaction was acknowledged in time. */
export function assertSlackHealthy(h: Harness): void {
  assert.deepEqual(h.slack.failures, [], 'no interaction went unacknowledged');
  const refused = h.slack.calls
    .filter((c) => c.response.ok === false)
    .map((c) => ({ method: c.method, error: c.response.error, errors: c.response.errors }));
  assert.deepEqual(refused, [], 'Slack refused no call (no invalid_blocks)');
}

/** Options of {@link relayPerTest}: the harness's, and how the test relay is checked and heard. */
export interface RelayPerTestOptions extends RelayHarnessOptions {
  /** default {@link E2E_MODE} */
  mode?: Mode;
  /** after each test, Slack must have refused nothing and missed no ack (see `assertSlackHealthy`) */
  healthy?: boolean;
  /** keep the relay's log lines from this level up, in `logged` */
  captureLog?: Level;
}

/** The relay of the current test, and the log lines it kept (with `captureLog`). */
export type TestRelay = Harness & { logged: LogRecord[] };

/**
 * A fresh relay for each test of the enclosing `describe`, stopped after it. The value stands
 * for whichever relay the current test has.
 */
export function relayPerTest(options: RelayPerTestOptions = {}): TestRelay {
  const { mode = E2E_MODE, healthy = false, captureLog: level, ...harness } = options;
  let relay: TestRelay | undefined;
  beforeEach(async () => {
    const capture = level ? captureLog(level) : undefined;
    const log = capture ? { log: capture.log } : {};
    const started = await startRelayHarness(mode, { ...harness, ...log });
    relay = Object.assign(started, { logged: capture?.records ?? [] });
  });
  afterEach(async () => {
    const h = relay;
    relay = undefined;
    try {
      if (h && healthy) assertSlackHealthy(h);
    } finally {
      await h?.stop();
    }
  });
  return new Proxy({} as TestRelay, {
    get(_, key) {
      if (!relay) throw new Error('relayPerTest: use the relay inside a test');
      return relay[key as keyof TestRelay];
    },
  });
}

/** {@link relayPerTest} whose Slack must have refused nothing and missed no ack. */
export const healthyRelayPerTest = (mode: Mode = E2E_MODE): TestRelay =>
  relayPerTest({ mode, healthy: true });

/**
 * For tests that start their relay themselves, each with options of its own: the function
 * starts one (in {@link E2E_MODE} unless `mode` says otherwise), and every relay it started is
 * stopped after the test.
 */
export function relayStarter(): (
  options?: RelayHarnessOptions & { mode?: Mode },
) => Promise<Harness> {
  const started: Harness[] = [];
  afterEach(async () => {
    for (const h of started.splice(0)) await h.stop();
  });
  return async ({ mode = E2E_MODE, ...options } = {}) => {
    const h = await startRelayHarness(mode, options);
    started.push(h);
    return h;
  };
}
