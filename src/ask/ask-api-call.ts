import type { IncomingMessage } from 'node:http';
import { stopReason } from '../stop-signals.js';

/** One request to a relay's ask API. */
export interface AskApiRequest {
  method: 'PUT' | 'GET' | 'DELETE' | 'POST';
  url: URL;
  /** sent as the bearer token; never said */
  token: string;
  body?: object;
  signal: AbortSignal;
  /** given up on (`lost`) after this long */
  timeoutMs: number;
}

/** What came back: the status, the JSON body and any Retry-After, or why nothing did. */
export type AskApiReply =
  | { status: number; body: unknown; retryAfterSec?: number }
  | { lost: string };

/** The most of an answer read: an answer file's 16 MiB, in JSON, and a little. */
const REPLY_MAX_BYTES = 40 * 1024 * 1024;

/**
 * Sends `req` with node's own http or https client (a hook is a fresh process each time, and
 * this loads in a third of the time `fetch` takes) and reads the JSON answer. Never throws:
 * a connection that fails, drops, goes silent past `timeoutMs` or is stopped by `signal` is
 * `lost`, with the error's code (ECONNREFUSED, a certificate's) or what stopped it. The client
 * is loaded on the first call: a hook asking its own machine's relay never needs it.
 */
export async function callAskApi(req: AskApiRequest): Promise<AskApiReply> {
  const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
  const { request: send } = await (req.url.protocol === 'https:'
    ? import('node:https')
    : import('node:http'));
  return new Promise((resolve) => {
    let done = false;
    const finish = (reply: AskApiReply) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.signal.removeEventListener('abort', onAbort);
      resolve(reply);
    };
    const outgoing = send(req.url, {
      method: req.method,
      headers: {
        authorization: `Bearer ${req.token}`,
        ...(payload !== undefined
          ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
          : {}),
      },
    });
    const timer = setTimeout(() => {
      finish({ lost: 'no answer in time' });
      outgoing.destroy();
    }, req.timeoutMs);
    const onAbort = () => {
      finish({ lost: stopReason(req.signal.reason) });
      outgoing.destroy();
    };
    if (req.signal.aborted) return onAbort();
    req.signal.addEventListener('abort', onAbort, { once: true });
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      finish({ lost: error.code ?? error.message }),
    );
    outgoing.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > REPLY_MAX_BYTES) {
          finish({ lost: `an answer over ${REPLY_MAX_BYTES} bytes` });
          outgoing.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', (error: NodeJS.ErrnoException) =>
        finish({ lost: error.code ?? error.message }),
      );
      res.on('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          body = undefined;
        }
        const retryAfter = Number(res.headers['retry-after']);
        finish({
          status: res.statusCode ?? 0,
          body,
          ...(retryAfter > 0 ? { retryAfterSec: Math.min(retryAfter, 60) } : {}),
        });
      });
    });
    outgoing.end(payload);
  });
}
