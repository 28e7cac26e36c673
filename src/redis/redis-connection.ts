import { createClient, type RedisClientType } from '@redis/client';
import type { Logger } from 'pino';
import { ErrorCode, RelayError } from '../errors.js';
import { type LinkState, nextLinkState } from './outage-log.js';
import { reconnectDelay } from './reconnect-delay.js';
import { classifyRedisFailure, failureReason, startFailureMessage } from './redis-failure.js';
import { redisAddress } from './redis-url.js';
import { RELAY_SCRIPTS } from './relay-scripts.js';

/** The client shared mode uses: RESP3, with the relay's Lua scripts as commands. */
export type RelayRedisClient = RedisClientType<
  Record<string, never>,
  Record<string, never>,
  typeof RELAY_SCRIPTS,
  3
>;

/** Redis is away for now: the action was not done (or not known to be done); try again soon. */
export class RedisUnavailableError extends RelayError {
  constructor(what: string, address: string, reason: string, options?: { cause?: unknown }) {
    super(
      ErrorCode.RedisUnavailable,
      `${what}: Redis at ${address} is not available right now (${reason}); try again in a moment`,
      options,
    );
    this.name = 'RedisUnavailableError';
  }
}

/** One connection to Redis for commands and pub/sub (RESP3 carries both on one socket). */
export interface RedisConnection {
  readonly client: RelayRedisClient;
  /** `host:port`, for messages */
  readonly address: string;
  /** Whether commands can be sent now; while not, `call` fails at once. */
  readonly ready: boolean;
  /**
   * Runs `command`. A failure of the connection, or no answer within the deadline, becomes a
   * `RedisUnavailableError` saying `what` was not done; Redis's own errors pass unchanged.
   */
  call<T>(
    what: string,
    command: (client: RelayRedisClient) => Promise<T>,
    opts?: { deadlineMs?: number },
  ): Promise<T>;
  /** `listener` runs each time the connection is ready again after an outage. */
  onReconnect(listener: () => void): () => void;
  close(): Promise<void>;
}

/** What `connectRedis` needs. */
export interface ConnectRedisOptions {
  /** `RELAY_REDIS_URL` */
  url: string;
  log: Logger;
  /** seen in CLIENT LIST, e.g. `o7-relay:<node>` */
  clientName?: string;
  /** the longest a command may take before the action is given up as "try again" */
  deadlineMs?: number;
  /** how long one connection attempt may take */
  connectTimeoutMs?: number;
  random?: () => number;
  now?: () => number;
}

/**
 * Well under Slack's 3 s for acknowledging a click, leaving time to answer "try again" when
 * Redis does not answer.
 */
export const DEFAULT_DEADLINE_MS = 2000;

/**
 * Connects to Redis. A first connection that fails throws a `RelayError` naming
 * `RELAY_REDIS_URL` (refused credentials: `RedisRefused`; anything else: `RedisUnreachable`),
 * both exit 2. Once connected, a lost connection is retried with a growing back-off for as
 * long as the relay runs; commands fail fast meanwhile (no queue to replay later), and the
 * outage is logged once when it starts and once when it ends.
 */
export async function connectRedis(opts: ConnectRedisOptions): Promise<RedisConnection> {
  const { url, log } = opts;
  const random = opts.random ?? Math.random;
  const now = opts.now ?? Date.now;
  const deadlineMs = opts.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const address = redisAddress(url);
  let connected = false;
  let closing = false;

  const client: RelayRedisClient = createClient({
    url,
    RESP: 3,
    scripts: RELAY_SCRIPTS,
    // Fail fast while away: a command queued for later would answer a click long after
    // Slack's 3 s, and a write replayed later may no longer be wanted.
    disableOfflineQueue: true,
    ...(opts.clientName ? { name: opts.clientName } : {}),
    socket: {
      connectTimeout: opts.connectTimeoutMs ?? 5000,
      // At start, give up at once so the cause (refused password, no server) is reported;
      // after that, keep trying.
      reconnectStrategy: (retries) => (connected ? reconnectDelay(retries, random()) : false),
    },
  });

  let link: LinkState = { up: true };
  const reconnectListeners = new Set<() => void>();
  client.on('error', (error: unknown) => {
    if (!connected || closing) return;
    const step = nextLinkState(link, { kind: 'error', reason: failureReason(error) }, now());
    link = step.state;
    if (step.news?.kind === 'lost') {
      log.warn(
        { redis: address, reason: step.news.reason, kind: classifyRedisFailure(error) },
        'Redis connection lost; reconnecting with back-off (actions that need Redis are refused with "try again" until it is back)',
      );
    }
  });
  client.on('ready', () => {
    if (!connected) return;
    const step = nextLinkState(link, { kind: 'ready' }, now());
    link = step.state;
    if (step.news?.kind === 'back') {
      log.info({ redis: address, downMs: step.news.downMs }, 'Redis connection is back');
    }
    for (const listener of reconnectListeners) listener();
  });

  try {
    await client.connect();
  } catch (error) {
    const kind = classifyRedisFailure(error);
    throw new RelayError(
      kind === 'auth' ? ErrorCode.RedisRefused : ErrorCode.RedisUnreachable,
      startFailureMessage(url, error),
      { cause: error },
    );
  }
  connected = true;
  log.debug({ redis: address }, 'connected to Redis');

  return {
    client,
    address,
    get ready() {
      return client.isReady;
    },
    async call(what, command, callOpts) {
      const limitMs = callOpts?.deadlineMs ?? deadlineMs;
      if (!client.isReady) {
        throw new RedisUnavailableError(what, address, link.up ? 'not connected' : link.reason);
      }
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new RedisUnavailableError(what, address, `no answer within ${limitMs} ms`)),
          limitMs,
        );
      });
      try {
        return await Promise.race([command(client), deadline]);
      } catch (error) {
        if (error instanceof RedisUnavailableError) throw error;
        const kind = classifyRedisFailure(error);
        if (kind === 'unreachable' || kind === 'loading') {
          throw new RedisUnavailableError(what, address, failureReason(error), { cause: error });
        }
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
    async close() {
      if (closing) return;
      closing = true;
      reconnectListeners.clear();
      // a graceful close waits for answers, which a connection that is down never gives
      if (client.isReady) {
        try {
          await client.close();
        } catch {
          // went away meanwhile: destroyed below
        }
      }
      if (client.isOpen) client.destroy();
    },
  };
}
