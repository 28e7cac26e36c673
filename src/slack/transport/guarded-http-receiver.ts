import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseForm } from 'node:querystring';
import {
  type App,
  type Logger as BoltLogger,
  type BufferedIncomingMessage,
  defaultBodyLimit,
  HTTPReceiver,
  type LogLevel,
  type Receiver,
  verifySlackRequest,
} from '@slack/bolt';
import type { Logger } from 'pino';
import { bodyProblem } from '../../core/inbound/body-problem.js';
import { parseRequestBody } from '../../core/inbound/parse-request-body.js';
import { requestTimestampProblem } from '../../core/inbound/request-timestamp.js';
import { readRequestBody } from './read-request-body.js';

/** Where Slack posts interactions and events (the manifest's request URLs). */
const ENDPOINT = '/slack/events';

/** What the guarded receiver needs. */
export interface GuardedHttpReceiverOptions {
  signingSecret: string;
  /** Bolt's logger and level, for the HTTPReceiver behind the guard */
  logger: BoltLogger;
  logLevel: LogLevel;
  /** where refused requests are reported */
  log: Logger;
  /** the clock request timestamps are checked against (ms); default `Date.now` */
  now?: () => number;
  /** largest body taken, in bytes; default Bolt's (4 MB) */
  bodyLimit?: number;
  /** told when the server starts listening for Slack, and when it stops */
  onListening?: (listening: boolean) => void;
}

/**
 * HTTP mode's receiver: Bolt's HTTPReceiver behind a guard of our own. Every request to
 * /slack/events is read (up to a size limit), its timestamp checked both ways (Bolt only
 * refuses old ones) and its signature verified, then its body parsed and checked for the
 * shape Bolt dereferences; only then is it handed to Bolt, with the bytes already read.
 * Anything refused gets a 4xx and one warning saying why, without the body.
 */
export function createGuardedHttpReceiver(options: GuardedHttpReceiverOptions): Receiver {
  const bolt = new HTTPReceiver({
    signingSecret: options.signingSecret,
    logger: options.logger,
    logLevel: options.logLevel,
    endpoints: ENDPOINT,
  });
  const now = options.now ?? Date.now;
  const limit = options.bodyLimit ?? defaultBodyLimit;
  const log = options.log;
  let server: Server | undefined;

  const refuse = (res: ServerResponse, status: number, problem: string, bytes?: number) => {
    log.warn({ status, problem, bytes }, `refused a request to ${ENDPOINT}`);
    res.writeHead(status, { 'content-type': 'text/plain', connection: 'close' });
    res.end(`${problem}\n`);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== ENDPOINT || req.method !== 'POST') {
      res.writeHead(404, { connection: 'close' });
      res.end();
      return;
    }
    const read = await readRequestBody(req, limit);
    if (!read.ok) {
      refuse(res, 413, `the body is larger than ${limit} bytes`);
      return;
    }
    const text = read.bytes.toString('utf8');
    const contentType = req.headers['content-type'];
    // Slack's SSL check is not signed; Bolt answers it and drops anything else in it.
    if (contentType === 'application/x-www-form-urlencoded' && isSslCheck(text)) {
      forward(req, res, read.bytes);
      return;
    }
    const stamp = header(req, 'x-slack-request-timestamp');
    const staleness = requestTimestampProblem(stamp, now());
    if (staleness !== undefined) {
      refuse(res, 401, staleness, read.bytes.length);
      return;
    }
    const unsigned = signatureProblem(options.signingSecret, req, text, now());
    if (unsigned !== undefined) {
      refuse(res, 401, unsigned, read.bytes.length);
      return;
    }
    const parsed = parseRequestBody(text, contentType);
    if (!parsed.ok) {
      refuse(res, parsed.error.status, parsed.error.problem, read.bytes.length);
      return;
    }
    const malformed = bodyProblem(parsed.value.body, parsed.value.name);
    if (malformed !== undefined) {
      refuse(res, 400, malformed, read.bytes.length);
      return;
    }
    forward(req, res, read.bytes);
  };

  /** Hands a checked request to Bolt; the body is already read, so Bolt takes these bytes. */
  const forward = (req: IncomingMessage, res: ServerResponse, bytes: Buffer) => {
    const buffered = req as BufferedIncomingMessage;
    buffered.rawBody = bytes;
    bolt.requestListener(buffered, res);
  };

  return {
    init(app: App) {
      bolt.init(app);
    },
    start(port: number) {
      return new Promise<Server>((resolve, reject) => {
        const listening = createServer((req, res) => {
          handle(req, res).catch((error: unknown) => {
            log.error({ err: error }, `could not handle a request to ${ENDPOINT}`);
            if (!res.headersSent) res.writeHead(500, { connection: 'close' });
            res.end();
          });
        });
        listening.once('error', reject);
        listening.listen(port, () => {
          listening.off('error', reject);
          listening.on('error', (error) => log.error({ err: error }, 'HTTP server error'));
          server = listening;
          listening.once('close', () => options.onListening?.(false));
          options.onListening?.(true);
          log.debug({ port: (listening.address() as AddressInfo).port }, 'listening for Slack');
          resolve(listening);
        });
      });
    },
    stop() {
      const closing = server;
      server = undefined;
      if (!closing) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        closing.close((error) => (error ? reject(error) : resolve()));
        closing.closeIdleConnections();
      });
    },
  };
}

/** Why the signature does not match (Bolt's check, at our clock), or undefined. */
function signatureProblem(
  signingSecret: string,
  req: IncomingMessage,
  body: string,
  nowMs: number,
): string | undefined {
  try {
    verifySlackRequest({
      signingSecret,
      body,
      headers: {
        'x-slack-signature': header(req, 'x-slack-signature') ?? '',
        'x-slack-request-timestamp': Number(header(req, 'x-slack-request-timestamp')),
      },
      nowMilliseconds: nowMs,
    });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : 'the signature does not match';
  }
}

/** A header's one value (a repeated header counts as missing). */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** True for Slack's `ssl_check=1` probe, read as Bolt reads it. */
function isSslCheck(text: string): boolean {
  return parseForm(text).ssl_check === '1';
}
