import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { describe, test } from 'node:test';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { ErrorCode, RelayError } from '../../src/errors.js';
import { healthOf } from '../../src/ops/health.js';
import { startOpsServer } from '../../src/ops/ops-server.js';

const log = pino({ level: 'silent' });
const health = () =>
  healthOf({ mode: 'http', slack: 'connected', watcher: 'watching', slackApiReachable: true });

describe('startOpsServer', () => {
  test('HEAD works on both paths; a scrape keeping its connection open does not hold the close', async () => {
    const server = await startOpsServer({ port: 0, registry: new Registry(), health, log });
    const base = `http://127.0.0.1:${server.port}`;
    const head = await fetch(`${base}/healthz`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-type'), 'application/json');
    assert.equal((await fetch(`${base}/metrics`, { method: 'HEAD' })).status, 200);
    const kept = await fetch(`${base}/metrics`, { headers: { connection: 'keep-alive' } });
    await kept.text();
    const started = Date.now();
    await server.close();
    assert.ok(Date.now() - started < 2000, 'closed without waiting for the idle connection');
  });

  test('a port in use stops the start with what to do', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      await assert.rejects(
        startOpsServer({ port, registry: new Registry(), health, log }),
        (error: unknown) => {
          assert.ok(error instanceof RelayError);
          assert.equal(error.code, ErrorCode.PortUnavailable);
          assert.match(
            error.message,
            new RegExp(
              `^Cannot serve health and metrics on port ${port} \\(RELAY_METRICS_PORT\\): EADDRINUSE\\. Another program \\(or another relay\\) listens there: set RELAY_METRICS_PORT to a free port, or leave it unset\\.$`,
            ),
          );
          return true;
        },
      );
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });
});
