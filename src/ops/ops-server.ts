import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { HealthReport } from './health.js';
import { listenOnPort } from './listen-on-port.js';

/** The two paths served, and what else a request gets. */
export const OPS_PATHS = { health: '/healthz', metrics: '/metrics' } as const;

export interface OpsServerOptions {
  /** the port to listen on, on every interface; 0 picks a free one */
  port: number;
  registry: Registry;
  health: () => HealthReport;
  log: Logger;
}

/** A listening operations server. */
export interface OpsServer {
  /** the port it listens on (the one picked, for 0) */
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `/healthz` (JSON, 200 or 503) and `/metrics` (Prometheus text format) for operators,
 * on a port of their own: never on Slack's port in HTTP mode, which faces the internet.
 */
export function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const { registry, log } = options;
  const send = (res: ServerResponse, status: number, type: string, body: string) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== OPS_PATHS.health && path !== OPS_PATHS.metrics) {
      send(res, 404, 'text/plain', `not found; try ${OPS_PATHS.health} or ${OPS_PATHS.metrics}\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      send(res, 405, 'text/plain', 'only GET and HEAD\n');
      return;
    }
    if (path === OPS_PATHS.health) {
      const report = options.health();
      send(res, report.status, 'application/json', `${JSON.stringify(report.body)}\n`);
      return;
    }
    send(res, 200, registry.contentType, await registry.metrics());
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log.error({ err }, 'could not answer a request for health or metrics');
      if (!res.headersSent) send(res, 500, 'text/plain', 'internal error\n');
      else res.end();
    });
  });
  return listenOnPort(
    server,
    { port: options.port, what: 'health and metrics', variable: 'RELAY_METRICS_PORT' },
    log,
  );
}
