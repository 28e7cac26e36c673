import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Logger } from 'pino';
import type * as z from 'zod';
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
import { describeIssues } from '../core/zod-issues.js';
import { ErrorCode, RelayError } from '../errors.js';
import { listenOnPort } from '../ops/listen-on-port.js';
import { readRequestBody } from '../slack/transport/read-request-body.js';
import { AskRefusal, createAskAuth } from './ask-auth.js';
import type { AskTokens } from './ask-tokens-file.js';
import type { RemoteAsks } from './remote-asks.js';

/** A body holds one batch: a question file's most, and room for the JSON around it. */
const BODY_MAX_BYTES = QA_LIMITS.fileBytes + 64 * 1024;

/** How often asks past their deadline, or left alone, are withdrawn. */
const SWEEP_EVERY_MS = 5000;

/** The same refusal to the same address and holder is logged once a minute at most. */
const LOG_REFUSAL_EVERY_MS = 60_000;

/** How long a stop waits for requests being answered (long polls told "waiting"). */
const CLOSE_GRACE_MS = 2000;

/** An idle notice's parts as kept: a notice file holds at most 4 KiB. */
const NOTICE_KEPT = { project: 300, session: 100, message: 500 } as const;

const ASK_PATH = new RegExp(`^${ASK_API}/asks/([^/]+)$`);

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

/** The request's JSON body, refused past {@link BODY_MAX_BYTES} without holding it all. */
async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const type = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') throw new AskRefusal(415, 'Send the body as application/json');
  const read = await readRequestBody(req, BODY_MAX_BYTES);
  if (!read.ok) throw new AskRefusal(413, `The body is over ${BODY_MAX_BYTES} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(read.bytes.toString('utf8'));
  } catch {
    throw new AskRefusal(400, `The body is not JSON (${read.bytes.length} bytes)`);
  }
  if (nestsDeeperThan(body, MAX_BODY_DEPTH))
    throw new AskRefusal(400, `The body nests more than ${MAX_BODY_DEPTH} levels deep`);
  return body;
}

function checked<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new AskRefusal(
    400,
    `The body does not fit: ${describeIssues(parsed.error, { root: 'the body' })}`,
  );
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
 * certificate. Every request shows a bearer token of `RELAY_ASK_TOKENS` (`ask-auth.ts`); a
 * refusal (a missing, wrong or revoked token, a flood, too many open asks, a body that does
 * not fit) is a status and a sentence, closes the connection and changes nothing. Tokens are
 * never logged: the logs name their holders.
 */
export async function startAskServer(deps: AskServerDeps): Promise<AskServer> {
  const { config, asks, log } = deps;
  const now = deps.now ?? Date.now;
  const holderOf = createAskAuth(deps.tokens, log, now);
  const refusalsLogged = new Map<string, number>();
  const closing = new AbortController();
  const answering = new Set<Promise<void>>();

  const route = async (req: IncomingMessage, res: ServerResponse, by: string) => {
    const url = new URL(req.url ?? '/', 'http://relay');
    if (url.pathname === `${ASK_API}/notices` && req.method === 'POST') {
      const notice = checked(noticeSchema, await readJsonBody(req));
      // the project is a folder on the caller's machine: shown, never used to pick a channel
      await leaveIdleNotice(deps.stateDir, {
        project: notice.project.slice(0, NOTICE_KEPT.project),
        session: notice.session.slice(0, NOTICE_KEPT.session),
        message: notice.message.slice(0, NOTICE_KEPT.message),
        askedBy: by,
      });
      return send(res, 202, { ok: true });
    }
    const id = ASK_PATH.exec(url.pathname)?.[1];
    if (id === undefined)
      throw new AskRefusal(
        404,
        `Nothing at ${url.pathname.slice(0, 80)}; the ask API is under ${ASK_API}/asks`,
      );
    if (!REMOTE_ASK_ID.test(id))
      throw new AskRefusal(400, `"${id.slice(0, 80)}" is not an ask id (time, "-", 32 hex digits)`);
    switch (req.method) {
      case 'PUT': {
        const put = checked(askPutSchema, await readJsonBody(req));
        const done = await asks.put(id, by, put, config.maxOpen);
        if ('status' in done) throw new AskRefusal(done.status, done.error);
        return send(res, done.created ? 201 : 200, { id, by });
      }
      case 'GET': {
        const asked = Number(url.searchParams.get('wait') ?? 0);
        const waitSec = Number.isFinite(asked) ? Math.min(Math.max(asked, 0), MOST_WAIT_SEC) : 0;
        const gone = new AbortController();
        res.once('close', () => gone.abort());
        const signal = AbortSignal.any([gone.signal, closing.signal]);
        const state = await asks.state(id, by, waitSec * 1000, signal);
        if ('status' in state) throw new AskRefusal(state.status, state.error);
        return send(res, 200, state);
      }
      case 'DELETE': {
        const state = await asks.withdraw(id, by);
        if ('status' in state) throw new AskRefusal(state.status, state.error);
        return send(res, 200, state);
      }
      default:
        throw new AskRefusal(
          405,
          `${req.method} is not answered here: PUT, GET or DELETE ${ASK_API}/asks/<id>`,
        );
    }
  };

  const logRefusal = (req: IncomingMessage, error: AskRefusal, by: string | undefined) => {
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
      if (!(error instanceof AskRefusal)) throw error;
      logRefusal(req, error, by);
      if (res.headersSent) return;
      // a body not read (a refused token, one too large) is not waited for: the connection goes
      send(
        res,
        error.status,
        { error: error.message },
        {
          connection: 'close',
          ...(error.retryAfterSec ? { 'retry-after': String(error.retryAfterSec) } : {}),
        },
      );
    }
  };

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const answered = handle(req, res)
      .catch((err: unknown) => {
        log.error({ err, method: req.method }, 'could not answer an ask API request');
        if (!res.headersSent) send(res, 500, { error: 'The relay failed to answer; see its log' });
        else res.end();
      })
      .finally(() => answering.delete(answered));
    answering.add(answered);
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
  // long polls are held for 25 s: the socket may stay quiet that long, and a little more;
  // a request (a slow body, say) may take a minute at most
  server.keepAliveTimeout = (MOST_WAIT_SEC + 5) * 1000;
  server.requestTimeout = 60_000;
  const sweeper = setInterval(() => {
    asks.sweep().catch((err: unknown) => log.error({ err }, 'could not withdraw overdue asks'));
    for (const [key, at] of refusalsLogged)
      if (now() - at >= LOG_REFUSAL_EVERY_MS) refusalsLogged.delete(key);
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
    { port: listening.port, tls: config.tls !== undefined, ...deps.tokens.counts() },
    'serving the ask API',
  );
  return {
    port: listening.port,
    async close() {
      clearInterval(sweeper);
      // long polls answer "waiting" (their askers come back), puts finish, then it closes
      closing.abort();
      await Promise.race([
        Promise.allSettled([...answering]),
        new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref()),
      ]);
      await listening.close();
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
