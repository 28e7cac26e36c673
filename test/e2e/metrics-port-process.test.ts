// RELAY_METRICS_PORT as an operator sets it: in the environment of a real `start` process.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { getHealth, sampleValue, scrapeMetrics } from '../support/ops-endpoints.js';
import { freePort } from '../support/relay-harness.js';
import { type RelayProcess, spawnRelayFor } from '../support/spawn-relay.js';
import { makeTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

describe('RELAY_METRICS_PORT in a relay process', () => {
  let slack: FakeSlack;
  let root: string;
  let cleanup: () => Promise<void>;
  let relay: RelayProcess | undefined;
  let taken: Server | undefined;

  beforeEach(async () => {
    slack = await startFakeSlack();
    ({ dir: root, cleanup } = await makeTempDir('o7-metrics-port-'));
    await mkdir(path.join(root, 'runs'), { recursive: true });
  });
  afterEach(async () => {
    await relay?.kill();
    relay = undefined;
    await new Promise<void>((resolve) => (taken ? taken.close(() => resolve()) : resolve()));
    taken = undefined;
    await slack.close();
    await cleanup();
  });

  test('HTTP mode: "relay ready" names both ports, and /healthz and /metrics answer', async () => {
    const [httpPort, metricsPort] = [await freePort(), await freePort()];
    relay = spawnRelayFor(slack, root, {
      logLevel: 'info',
      httpPort,
      env: { RELAY_METRICS_PORT: String(metricsPort) },
    });
    const ready = await relay.waitForLog('relay ready');
    assert.equal(ready.httpPort, httpPort);
    assert.equal(ready.metricsPort, metricsPort);
    const health = await getHealth(metricsPort);
    assert.equal(health.status, 200, JSON.stringify(health.body));
    const scrape = await scrapeMetrics(metricsPort);
    assert.equal(sampleValue(scrape, 'o7_relay_slack_connected'), 1);
    assert.ok(sampleValue(scrape, 'process_resident_memory_bytes') > 0);
    await relay.kill('SIGTERM');
    assert.deepEqual(await relay.exited, { code: 0, signal: null });
  });

  test('a metrics port in use stops the start with exit 1 and what to do, without a stack', async () => {
    taken = createServer();
    const server = taken;
    await new Promise<void>((resolve) => server.listen(0, resolve));
    const port = (server.address() as { port: number }).port;
    relay = spawnRelayFor(slack, root, {
      logLevel: 'info',
      env: { RELAY_METRICS_PORT: String(port) },
    });
    const running = relay;
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
    assert.doesNotMatch(err, /\n\s+at /, 'no stack');
    assert.ok(!running.logs.some((l) => l.msg === 'relay ready'));
  });
});
