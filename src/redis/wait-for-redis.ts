import { RelayError } from '../errors.js';
import { type BackOff, waitUntilReachable } from '../wait-until-reachable.js';
import {
  type ConnectRedisOptions,
  connectRedis,
  type RedisConnection,
} from './redis-connection.js';
import { classifyRedisFailure, failureReason } from './redis-failure.js';
import { redisAddress } from './redis-url.js';

/**
 * Connects to Redis at start, waiting while it cannot be reached (not running yet, still
 * loading its data, the network not up), as the relay waits for Slack: a relay that boots
 * before Redis starts once Redis is there. What waiting cannot fix still ends the start, as
 * `connectRedis` says it: credentials refused, TLS failed, not a Redis (exit 2).
 */
export async function waitForRedis(
  opts: ConnectRedisOptions & { backOff?: BackOff; signal?: AbortSignal },
): Promise<RedisConnection> {
  const { backOff, signal, ...connect } = opts;
  const address = redisAddress(opts.url);
  return waitUntilReachable({
    async tryOnce() {
      try {
        const connection = await connectRedis(connect);
        // the wait was given up while this try was under way: nobody will close it
        if (signal?.aborted) await connection.close();
        return { ok: true, value: connection };
      } catch (error) {
        const cause = error instanceof RelayError ? error.cause : error;
        const kind = classifyRedisFailure(cause);
        if (kind !== 'unreachable' && kind !== 'loading') throw error;
        return { ok: false, reason: failureReason(cause) };
      }
    },
    log: opts.log,
    service: 'Redis',
    where: { redis: address },
    hint: `If this goes on, check that Redis is running at ${address} and that this machine may connect to it, or fix the host and port in RELAY_REDIS_URL.`,
    backOff,
    signal,
  });
}
