// SIGTERM and SIGINT in each step of a start, on real relay processes: node ends a process
// that has no handler for them with 143 (130), closing nothing, and in a container, where node
// is PID 1, ignores them, so `docker compose stop` waited for its SIGKILL. A stop during the
// outage of a running relay: stop-during-outage.test.ts.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { getHealth } from '../support/ops-endpoints.js';
import { freePort } from '../support/relay-harness.js';
import {
  noStack,
  type RelayProcess,
  relayProcessPerTest,
  spawnRelayFor,
} from '../support/spawn-relay.js';
import { waitFor } from '../support/wait.js';

/** Sends `signal` and waits for the exit; the exit, and how long it took (ms). */
async function stopWith(relay: RelayProcess, signal: NodeJS.Signals) {
  const sent = performance.now();
  relay.child.kill(signal);
  const exit = await relay.exited;
  return { exit, ms: Math.round(performance.now() - sent) };
}

/** What every clean stop shows: exit 0, one `stopping` line naming the signal, `stopped`. */
function assertStoppedCleanly(
  t: TestContext,
  relay: RelayProcess,
  stop: Awaited<ReturnType<typeof stopWith>>,
  signal: NodeJS.Signals,
) {
  assert.deepEqual(stop.exit, { code: 0, signal: null }, relay.stderr());
  const stopping = relay.logs.filter((l) => l.msg === 'stopping');
  assert.equal(stopping.length, 1, relay.stdout().slice(-2000));
  assert.equal(stopping[0]?.signal, signal);
  assert.ok(relay.logs.some((l) => l.msg === 'stopped'));
  assert.equal(relay.stderr(), '', 'nothing on stderr');
  noStack(relay.stdout());
  // how long the stop took, for the record; a timed assertion would flake on a loaded machine
  t.diagnostic(`exited ${stop.ms} ms after ${signal}`);
}

const saidStartsWith = (relay: RelayProcess, start: string) =>
  waitFor(
    () => relay.logs.find((l) => String(l.msg).startsWith(start)),
    `a log line starting "${start}" (stderr: ${relay.stderr().slice(-500)})`,
  );

describe('a relay asked to stop while it starts', () => {
  const fx = relayProcessPerTest('o7-stop-starting-');

  for (const [signal, does] of [
    ['SIGTERM', 'ends the wait, exit 0'],
    ['SIGINT', '(Ctrl-C) does the same'],
  ] as const) {
    test(`waiting for Slack: ${signal} ${does}`, async (t) => {
      fx.relay = spawnRelayFor(fx.slack, fx.root, {
        env: { SLACK_API_URL: `http://127.0.0.1:${await freePort()}/api/` },
      });
      await saidStartsWith(fx.relay, 'Slack cannot be reached');
      const stop = await stopWith(fx.relay, signal);
      assertStoppedCleanly(t, fx.relay, stop, signal);
      assert.ok(!fx.relay.logs.some((l) => l.msg === 'relay ready'));
    });
  }

  test('waiting for Redis (shared mode, nothing listening): SIGTERM ends the wait, exit 0, and frees the state folder', async (t) => {
    const env = {
      RELAY_REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      RELAY_NODE: 'node-stop',
    };
    fx.relay = spawnRelayFor(fx.slack, fx.root, { env });
    await saidStartsWith(fx.relay, 'Redis cannot be reached');
    const stop = await stopWith(fx.relay, 'SIGTERM');
    assertStoppedCleanly(t, fx.relay, stop, 'SIGTERM');
    // the lock taken before the wait was given back: a second relay may wait there now
    fx.relay = spawnRelayFor(fx.slack, fx.root, { env });
    await saidStartsWith(fx.relay, 'Redis cannot be reached');
    assertStoppedCleanly(t, fx.relay, await stopWith(fx.relay, 'SIGTERM'), 'SIGTERM');
  });

  test('connecting to Slack (the stand-in refusing Socket Mode), the first scan of 1,500 runs beside it: SIGTERM, exit 0', async (t) => {
    // enough runs that the first scan takes a while beside the held connection (one step of the
    // start: a stop cuts both short); whether it was still under way depends on the machine,
    // so /healthz's word on it is reported, not asserted
    for (let i = 0; i < 1500; i += 1) {
      await mkdir(path.join(fx.root, 'runs', `run-${i}`, 'qa'), { recursive: true });
    }
    // the token check opens one connection URL; Bolt's own asks are refused, and retried
    let opens = 0;
    fx.slack.refuse('apps.connections.open', 'internal_error', () => {
      opens += 1;
      return opens > 1;
    });
    const metricsPort = await freePort();
    fx.relay = spawnRelayFor(fx.slack, fx.root, {
      env: { RELAY_METRICS_PORT: String(metricsPort) },
    });
    const health = await waitFor(
      () => getHealth(metricsPort),
      '/healthz to answer while the relay starts',
    );
    assert.equal(health.status, 503, JSON.stringify(health.body));
    const stop = await stopWith(fx.relay, 'SIGTERM');
    t.diagnostic(`/healthz said before the stop: ${JSON.stringify(health.body)}`);
    assertStoppedCleanly(t, fx.relay, stop, 'SIGTERM');
    assert.ok(!fx.relay.logs.some((l) => l.msg === 'relay ready'));
    assert.ok(fx.relay.logs.some((l) => l.msg === 'connecting to Slack'));
  });

  test('running: SIGTERM, exit 0', async (t) => {
    fx.relay = spawnRelayFor(fx.slack, fx.root);
    await fx.relay.waitForLog('relay ready');
    assertStoppedCleanly(t, fx.relay, await stopWith(fx.relay, 'SIGTERM'), 'SIGTERM');
  });
});
