// RELAY_METRICS_PORT as an operator sets it: in the environment of a real `start` process.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { afterEach, describe, test } from 'node:test';
import { getHealth, sampleValue, scrapeMetrics } from '../support/ops-endpoints.js';
import { freePort } from '../support/relay-harness.js';
import { noStack, relayProcessPerTest, spawnRelayFor } from '../support/spawn-relay.js';
import { waitFor } from '../support/wait.js';

describe('RELAY_METRICS_PORT in a relay process', () => {
  const fx = relayProcessPerTest('o7-metrics-port-');
  let taken: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (taken ? taken.close(() => resolve()) : resolve()));
    taken = undefined;
  });

  test('HTTP mode: "relay ready" names both ports, and /healthz and /metrics answer', async () => {
    const [httpPort, metricsPort] = [await freePort(), await freePort()];
    fx.relay = spawnRelayFor(fx.slack, fx.root, {
      logLevel: 'info',
      httpPort,
      env: { RELAY_METRICS_PORT: String(metricsPort) },
    });
    const ready = await fx.relay.waitForLog('relay ready');
    assert.equal(ready.httpPort, httpPort);
    assert.equal(ready.metricsPort, metricsPort);
    const health = await getHealth(metricsPort);
    assert.equal(health.status, 200, JSON.stringify(health.body));
    const scrape = await scrapeMetrics(metricsPort);
    assert.equal(sampleValue(scrape, 'o7_relay_slack_connected'), 1);
    assert.ok(sampleValue(scrape, 'process_resident_memory_bytes') > 0);
    await fx.relay.kill('SIGTERM');
    assert.deepEqual(await fx.relay.exited, { code: 0, signal: null });
  });

  test('a metrics port in use stops the start with exit 1 and what to do, without a stack', async () => {
    taken = createServer();
    const server = taken;
    await new Promise<void>((resolve) => server.listen(0, resolve));
    const port = (server.address() as { port: number }).port;
    fx.relay = spawnRelayFor(fx.slack, fx.root, {
      logLevel: 'info',
      env: { RELAY_METRICS_PORT: String(port) },
    });
    const running = fx.relay;
    const exit = await waitFor(
      () => (running.child.exitCode === null ? undefined : running.exited),
      'the relay to stop',
    );
    assert.equal((await exit).code, 1);
    const err = running.stderr();
    assert.match(
      err,
      new RegExp(
        `^Cannot serve health and metrics on port ${port} \\(RELAY_METRICS_PORT\\): EADDRINUSE\\.`,
      ),
    );
    noStack(err);
    assert.ok(!running.logs.some((l) => l.msg === 'relay ready'));
  });
});
