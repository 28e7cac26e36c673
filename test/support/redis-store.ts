import pino, { type Logger } from 'pino';
import { connectRedis, type RedisConnection } from '../../src/redis/redis-connection.js';
import { openRedisStateStore } from '../../src/store/redis/redis-state-store.js';
import type { StateStore } from '../../src/store/state-store.js';

let namespaces = 0;

/** A key namespace no other store in this test process uses: tests can share one server. */
export function freshNamespace(): string {
  namespaces += 1;
  return `t${process.pid}-${namespaces}`;
}

/**
 * A relay's `RedisStateStore` on a real server, on a connection of its own that its `close`
 * also closes: what one relay process would have. `connection` is there for tests that break
 * or inspect it.
 */
export async function openTestRedisStore(opts: {
  url: string;
  node: string;
  namespace: string;
  log?: Logger;
  deadlineMs?: number;
}): Promise<StateStore & { connection: RedisConnection }> {
  const log = opts.log ?? pino({ level: 'silent' });
  const connection = await connectRedis({
    url: opts.url,
    log,
    clientName: `o7-test:${opts.node}`,
    ...(opts.deadlineMs ? { deadlineMs: opts.deadlineMs } : {}),
  });
  let store: StateStore;
  try {
    store = await openRedisStateStore({
      connection,
      node: opts.node,
      log,
      namespace: opts.namespace,
    });
  } catch (error) {
    await connection.close();
    throw error;
  }
  return {
    connection,
    get: store.get,
    forRun: store.forRun,
    all: store.all,
    put: store.put,
    update: store.update,
    watch: store.watch,
    forget: store.forget,
    get notices() {
      return store.notices;
    },
    async close() {
      try {
        await store.close();
      } finally {
        await connection.close();
      }
    },
  };
}
