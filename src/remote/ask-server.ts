import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { leaveIdleNotice } from '../claude-code/idle-notices.js';
import type { AskServerConfig } from '../config/config-schema.js';
import { MAX_BODY_DEPTH, nestsDeeperThan } from '../core/inbound/nesting-depth.js';
import { QA_LIMITS } from '../core/protocol/qa-limits.js';
import {
  ASK_API,
  askPutSchema,
  MOST_WAIT_SEC,
  noticeSchema,
  REMOTE_ASK_ID,
} from '../core/remote/ask-wire.js';
import { type Bucket, type FloodPolicy, takeRequest } from '../core/remote/flood-limit.js';
import { ErrorCode, RelayError } from '../errors.js';
import { listenOnPort } from '../ops/listen-on-port.js';
import type { AskTokens } from './ask-tokens-file.js';
import type { RemoteAsks } from './remote-asks.js';

/** Each token's allowance: a burst of 30 requests, then one a second (a long poll is one per 25 s). */
export const ASK_FLOOD_POLICY: FloodPolicy = { burst: 30, perSecond: 1 };

/** A body holds one batch: a question file's most, and room for the JSON around it. */
const BODY_MAX_BYTES = QA_LIMITS.fileBytes + 64 * 1024;

/** How often asks past their deadline, or left alone, are withdrawn. */
const SWEEP_EVERY_MS = 5000;

/** The same refusal from the same address is logged once a minute at most. */
const LOG_REFUSAL_EVERY_MS = 60_000;

class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterSec?: number,
  ) {
    super(message);
  }
}

function send(
  res: ServerResponse,
  status: number,
  body: object,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** The request's body, whole, refused past {@link BODY_MAX_BYTES} without reading it all. */
async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const type = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') throw new Refused(415, 'Send the body as application/json');
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > BODY_MAX_BYTES) throw new Refused(413, `The body is over ${BODY_MAX_BYTES} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_MAX_BYTES) throw new Refused(413, `The body is over ${BODY_MAX_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Refused(400, `The body is not JSON (${size} bytes)`);
  }
  if (nestsDeeperThan(body, MAX_BODY_DEPTH))
    throw new Refused(400, `The body nests more than ${MAX_BODY_DEPTH} levels deep`);
  return body;
}

function checked<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'the body';
  throw new Refused(400, `The body does not fit: ${where}: ${issue?.message ?? 'invalid'}`);
}

/** A listening ask API. */
export interface AskServer {
  port: number;
  close(): Promise<void>;
}

export interface AskServerDeps {
  config: AskServerConfig;
  stateDir: string;
  tokens: AskTokens;
  asks: RemoteAsks;
  log: Logger;
  now?: () => number;
}

/**
 * The ask API on `RELAY_ASK_PORT` (see `core/remote/ask-wire.ts`), over TLS when given a
 * certificate. Every request shows a bearer token of `RELAY_ASK_TOKENS`; a missing, wrong or
 * revoked one, a flood (each token's own allowance, and its open asks' limit) and a body that
 * does not fit are refused with a status and a sentence, and change nothing. Tokens are never
 * logged: the logs name their holders.
 */
export async function startAskServer(deps: AskServerDeps): Promise<AskServer> {
  const { config, tokens, asks, log } = deps;
  const now = deps.now ?? Date.now;
  const buckets = new Map<string, Bucket>();
  const refusalsLogged = new Map<string, number>();
  const closing = new AbortController();

  const holderOf = async (req: IncomingMessage): Promise<string> => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1])
      throw new Refused(401, 'No bearer token: send "Authorization: Bearer <token>" (RELAY_TOKEN)');
    const holder = await tokens.identify(match[1]);
    if (holder.kind === 'broken') {
      log.error(
        { problem: holder.problem },
        'the ask tokens file cannot be used; every ask is refused until it is fixed',
      );
      throw new Refused(
        503,
        "The relay's tokens file is broken; its operator is told in the relay's log",
      );
    }
    if (holder.kind === 'unknown')
      throw new Refused(
        401,
        "The token is not one this relay knows; check RELAY_TOKEN against the relay's RELAY_ASK_TOKENS",
      );
    if (holder.kind === 'revoked')
      throw new Refused(
        403,
        `The token of ${holder.name} was revoked; ask the relay's operator for a new one`,
      );
    const verdict = takeRequest(buckets.get(holder.name), now(), ASK_FLOOD_POLICY);
    buckets.set(holder.name, verdict.bucket);
    if (!verdict.allowed)
      throw new Refused(
        429,
        `Too many requests from ${holder.name}: at most ${ASK_FLOOD_POLICY.burst} at once and ${ASK_FLOOD_POLICY.perSecond} a second after that; try again in ${verdict.retryAfterSec} s`,
        verdict.retryAfterSec,
      );
    return holder.name;
  };

  const route = async (req: IncomingMessage, res: ServerResponse, by: string) => {
    const url = new URL(req.url ?? '/', 'http://relay');
    if (url.pathname === `${ASK_API}/notices` && req.method === 'POST') {
      const notice = checked(noticeSchema, await readJsonBody(req));
      // the project is the caller's machine's folder: said, never used to pick a channel
      await leaveIdleNotice(deps.stateDir, { ...notice, project: `${by}:${notice.project}` });
      return send(res, 202, { ok: true });
    }
    const ask = /^\/v1\/asks\/([^/]+)$/.exec(url.pathname);
    if (!ask?.[1])
      throw new Refused(404, `Nothing at ${url.pathname}; the ask API is under ${ASK_API}/asks`);
    const id = decodeURIComponent(ask[1]);
    if (!REMOTE_ASK_ID.test(id))
      throw new Refused(400, `"${id.slice(0, 80)}" is not an ask id (time, "-", 32 hex digits)`);
    switch (req.method) {
      case 'PUT': {
        const put = checked(askPutSchema, await readJsonBody(req));
        if (asks.openCount(by) >= config.maxOpen)
          throw new Refused(
            429,
            `${by} has ${config.maxOpen} asks waiting in Slack already (RELAY_ASK_MAX_OPEN); let some be answered or withdrawn first`,
            30,
          );
        const done = await asks.put(id, by, put);
        if ('status' in done) throw new Refused(done.status, done.error);
        return send(res, done.created ? 201 : 200, { id, by });
      }
      case 'GET': {
        const asked = Number(url.searchParams.get('wait') ?? 0);
        const waitSec = Number.isFinite(asked) ? Math.min(Math.max(asked, 0), MOST_WAIT_SEC) : 0;
        const gone = new AbortController();
        res.once('close', () => gone.abort());
        const state = await asks.state(
          id,
          by,
          waitSec * 1000,
          AbortSignal.any([gone.signal, closing.signal]),
        );
        if ('status' in state) throw new Refused(state.status, state.error);
        return send(res, 200, state);
      }
      case 'DELETE': {
        const state = await asks.withdraw(id, by);
        if ('status' in state) throw new Refused(state.status, state.error);
        return send(res, 200, state);
      }
      default:
        throw new Refused(
          405,
          `${req.method} is not answered here: PUT, GET or DELETE ${ASK_API}/asks/<id>`,
        );
    }
  };

  const refusalLine = (req: IncomingMessage, error: Refused, by?: string) => {
    const key = `${req.socket.remoteAddress}:${error.status}:${by ?? ''}`;
    const last = refusalsLogged.get(key);
    if (last !== undefined && now() - last < LOG_REFUSAL_EVERY_MS) return;
    refusalsLogged.set(key, now());
    log.warn(
      {
        status: error.status,
        from: req.socket.remoteAddress,
        asker: by,
        method: req.method,
        reason: error.message,
      },
      'ask API request refused',
    );
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let by: string | undefined;
    try {
      by = await holderOf(req);
      await route(req, res, by);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      refusalLine(req, error, by);
      if (!res.headersSent)
        send(
          res,
          error.status,
          { error: error.message },
          error.retryAfterSec ? { 'retry-after': String(error.retryAfterSec) } : {},
        );
      // a body not read to its end is not waited for
      req.resume();
    }
  };

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err: unknown) => {
      log.error({ err, method: req.method }, 'could not answer an ask API request');
      if (!res.headersSent) send(res, 500, { error: 'The relay failed to answer; see its log' });
      else res.end();
    });
  };
  const server: Server = config.tls
    ? createTlsServer(
        {
          cert: await readTlsFile(config.tls.certFile, 'RELAY_ASK_TLS_CERT'),
          key: await readTlsFile(config.tls.keyFile, 'RELAY_ASK_TLS_KEY'),
        },
        listener,
      )
    : createServer(listener);
  // long polls are held for 25 s: the socket may stay quiet that long, and a little more
  server.keepAliveTimeout = (MOST_WAIT_SEC + 5) * 1000;
  const sweeper = setInterval(() => {
    asks.sweep().catch((err: unknown) => log.error({ err }, 'could not withdraw overdue asks'));
  }, SWEEP_EVERY_MS);
  sweeper.unref();
  const listening = await listenOnPort(
    server,
    { port: config.port, host: config.host, what: 'the ask API', variable: 'RELAY_ASK_PORT' },
    log,
  ).catch((error: unknown) => {
    clearInterval(sweeper);
    throw error;
  });
  log.info(
    { port: listening.port, tls: config.tls !== undefined, ...tokens.counts() },
    'serving the ask API',
  );
  return {
    port: listening.port,
    close: () => {
      clearInterval(sweeper);
      closing.abort();
      return listening.close();
    },
  };
}

async function readTlsFile(file: string, variable: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    throw new RelayError(
      ErrorCode.ConfigInvalid,
      `${variable}: ${file} cannot be read (${(error as Error).message}); give a PEM file, or leave RELAY_ASK_TLS_CERT and RELAY_ASK_TLS_KEY unset and put a TLS proxy in front (docs/remote-relay.md)`,
    );
  }
}
