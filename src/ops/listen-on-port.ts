import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { ErrorCode, RelayError } from '../errors.js';

/** What a port the relay serves on is for, said when it cannot be listened on. */
export interface PortUse {
  port: number;
  /** the address; absent: every interface */
  host?: string | undefined;
  /** what is served there, e.g. "health and metrics" */
  what: string;
  /** the variable that names the port, e.g. RELAY_METRICS_PORT */
  variable: string;
}

/**
 * Listens on `use.port` and resolves with the port listened on (the one picked, for 0); a port
 * that cannot be listened on is a `RelayError` naming the variable and what to do. Later
 * server errors are logged. `close` stops it, cutting connections kept open (Prometheus'
 * between scrapes, long polls).
 */
export function listenOnPort(
  server: Server,
  use: PortUse,
  log: Logger,
): Promise<{ port: number; close(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const refused = (err: NodeJS.ErrnoException) =>
      reject(
        new RelayError(
          ErrorCode.PortUnavailable,
          `Cannot serve ${use.what} on port ${use.port} (${use.variable}): ${err.code ?? err.message}. ${err.code === 'EADDRINUSE' ? 'Another program (or another relay) listens there: ' : ''}set ${use.variable} to a free port, or leave it unset.`,
          { cause: err },
        ),
      );
    server.once('error', refused);
    server.listen(use.port, use.host, () => {
      server.off('error', refused);
      server.on('error', (err) => log.error({ err }, `${use.what} server error`));
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
