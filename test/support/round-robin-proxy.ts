import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for a load balancer on loopback: each request goes to the next of `ports` in
 * turn, unchanged (method, path, headers, body), and its answer comes back unchanged. A
 * target that refuses the connection is skipped for that request, as a balancer's health
 * check would.
 */
export async function startRoundRobinProxy(ports: readonly number[]): Promise<{
  url: string;
  /** requests each target answered, by port */
  served: Map<number, number>;
  close(): Promise<void>;
}> {
  let next = 0;
  const served = new Map<number, number>(ports.map((port) => [port, 0]));
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const attempt = (left: number) => {
        const port = ports[next % ports.length] as number;
        next += 1;
        const forward = request(
          {
            host: '127.0.0.1',
            port,
            method: incoming.method,
            path: incoming.url,
            headers: incoming.headers,
          },
          (answer) => {
            served.set(port, (served.get(port) ?? 0) + 1);
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(outgoing);
          },
        );
        forward.on('error', () => {
          if (left > 1) attempt(left - 1);
          else outgoing.writeHead(502).end('no target answered');
        });
        forward.end(body);
      };
      attempt(ports.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/slack/events`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
