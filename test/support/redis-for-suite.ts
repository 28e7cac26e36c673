import { after, before } from 'node:test';
import { createClient } from '@redis/client';
import pino from 'pino';
import { connectRedis, type RedisConnection } from '../../src/redis/redis-connection.js';
import {
  needsRedis,
  type RedisServerOptions,
  type RedisTestServer,
  startRedisServer,
} from './redis-server.js';

/**
 * A real Redis server for the enclosing describe: started before its tests when Redis tests
 * run, disposed after them. What it returns gives the server, inside a test that needs Redis.
 */
export function redisForSuite(opts: RedisServerOptions = {}): () => RedisTestServer {
  let server: RedisTestServer | undefined;
  before(async () => {
    if (needsRedis.skip === false) server = await startRedisServer(opts);
  });
  after(() => server?.dispose());
  return () => {
    if (!server)
      throw new Error('redisForSuite: the server is there only in tests that need Redis');
    return server;
  };
}

/**
 * A real Redis server for the enclosing describe (as {@link redisForSuite}), and relay
 * connections to it: `connect` makes one, and all are closed after the suite, before the server.
 */
export function redisConnectionsForSuite() {
  let server: RedisTestServer | undefined;
  const connections: RedisConnection[] = [];
  before(async () => {
    if (needsRedis.skip === false) server = await startRedisServer();
  });
  after(async () => {
    await Promise.all(connections.map((c) => c.close()));
    await server?.dispose();
  });
  const serverNow = () => {
    if (!server) throw new Error('redisConnectionsForSuite: Redis is there only in Redis tests');
    return server;
  };
  const log = pino({ level: 'silent' });
  return {
    server: serverNow,
    async connect(): Promise<RedisConnection> {
      const connection = await connectRedis({ url: serverNow().url, log });
      connections.push(connection);
      return connection;
    },
  };
}

/** Starts a Redis server as `opts` say, runs `body` with it, and disposes of it whatever happens. */
export async function withRedisServer(
  opts: RedisServerOptions,
  body: (server: RedisTestServer) => Promise<void>,
): Promise<void> {
  const server = await startRedisServer(opts);
  try {
    await body(server);
  } finally {
    await server.dispose();
  }
}

/** A loopback port a Redis server listened on a moment ago: nothing answers there now. */
export async function portNoRedisListensOn(): Promise<number> {
  const spare = await startRedisServer();
  await spare.dispose();
  return spare.port;
}

/** A plain client on the Redis at `url`, connected, for a test to read or change what relays wrote. */
export async function adminClient(url: string) {
  const admin = createClient({ url });
  await admin.connect();
  return admin;
}
