import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FileUploads } from './methods-files.js';
import type { ResponseUrls } from './response-urls.js';
import type { SocketModeHub } from './socket-mode-hub.js';
import { readBody } from './web-api-request.js';
import type { HttpAnswer, WebApiRouter } from './web-api-router.js';

/** The parts of the stand-in that answer HTTP and WebSocket traffic. */
export interface HttpRoutes {
  webApi: WebApiRouter;
  responseUrls: ResponseUrls;
  hub: SocketModeHub;
  uploads: FileUploads;
}

/** A listening loopback server. */
export interface ListeningServer {
  server: Server;
  host: string;
}

const notFound: HttpAnswer = {
  status: 404,
  headers: { 'content-type': 'text/plain' },
  body: 'not found',
};

/**
 * Listens on 127.0.0.1 (random port): `/api/<method>` is the Web API, `/actions/<id>` the
 * response_url endpoint, `/upload/<file id>` takes file uploads, and `/link/?ticket=` upgrades
 * to Socket Mode.
 */
export async function listenLoopback(routes: () => HttpRoutes): Promise<ListeningServer> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    readBody(req)
      // A request is handled a turn after it was read: Socket Mode frames the relay sent
      // before it (an ack, say) come on another socket, and one that node read in the same
      // turn is then counted first, in the order the relay sent them, not the order node
      // happened to read the two sockets in.
      .then((body) => new Promise<string>((resolve) => setImmediate(() => resolve(body))))
      .then((body) => {
        const { webApi, responseUrls, uploads } = routes();
        if (url.pathname.startsWith('/api/')) {
          return webApi.handle(url.pathname.slice('/api/'.length), req, url, body);
        }
        if (url.pathname.startsWith('/actions/') && req.method === 'POST') {
          return responseUrls.handle(url.pathname.slice('/actions/'.length), body);
        }
        if (url.pathname.startsWith('/upload/') && req.method === 'POST') {
          return uploads.receive(
            url.pathname.slice('/upload/'.length),
            req.headers['content-type'],
            body,
          );
        }
        return notFound;
      })
      .then(
        (answer) => {
          res.writeHead(answer.status, answer.headers);
          res.end(answer.body);
        },
        (error: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`fake-slack failed: ${error instanceof Error ? error.stack : String(error)}`);
        },
      );
  });
  server.on('upgrade', (req, socket, head) => routes().hub.handleUpgrade(req, socket, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { server, host: `127.0.0.1:${port}` };
}

/** Stops the server, cutting keep-alive connections so the process can exit. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
