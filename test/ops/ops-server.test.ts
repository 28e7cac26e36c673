import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { ErrorCode, RelayError } from '../../src/errors.js';
import { healthOf } from '../../src/ops/health.js';
import { startOpsServer } from '../../src/ops/ops-server.js';
import { waitFor } from '../support/wait.js';

const log = pino({ level: 'silent' });
const health = () =>
  healthOf({ mode: 'http', slack: 'connected', watcher: 'watching', slackApiReachable: true });

describe('startOpsServer', () => {
  test('HEAD works on both paths', async () => {
    const server = await startOpsServer({ port: 0, registry: new Registry(), health, log });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const head = await fetch(`${base}/healthz`, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('content-type'), 'application/json');
      assert.equal((await fetch(`${base}/metrics`, { method: 'HEAD' })).status, 200);
    } finally {
      await server.close();
    }
  });

  // A close that waited for this connection would wait on a scraper that never finishes its
  // request (until Node's own request timeout, minutes away): the test's timeout fails it.
  test('a scraper holding a connection mid-request does not hold the close', {
    timeout: 20_000,
  }, async () => {
    const server = await startOpsServer({ port: 0, registry: new Registry(), health, log });
    const socket = connect(server.port, '127.0.0.1');
    const closedByServer = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {}); // the close may reset it: expected
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
    });
    socket.write('GET /metrics HTTP/1.1\r\nHost: ops\r\nConnection: keep-alive\r\n\r\n');
    await waitFor(() => received.startsWith('HTTP/1.1 200'), 'the first scrape answered');
    // the next request's body never finishes: the connection stays busy, not idle
    socket.write('POST /metrics HTTP/1.1\r\nHost: ops\r\nContent-Length: 100\r\n\r\npartial');
    await server.close();
    await closedByServer;
    assert.equal(socket.destroyed, true);
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
