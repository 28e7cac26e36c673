import { after } from 'node:test';
import { needsRedis, type RedisTestServer, startRedisServer } from '../../support/redis-server.js';
import { freshNamespace, openTestRedisStore } from '../../support/redis-store.js';
import { stateStoreContract } from '../state-store-contract.js';

let server: RedisTestServer | undefined;
after(() => server?.dispose());

stateStoreContract(
  'the Redis store',
  async () => {
    server ??= await startRedisServer();
    const { url } = server;
    const namespace = freshNamespace();
    return {
      open: () => openTestRedisStore({ url, node: 'n1', namespace }),
      openPeer: () => openTestRedisStore({ url, node: 'n2', namespace }),
      stored: (record) => ({ ...record, node: record.node ?? 'n1' }),
      dispose: async () => undefined,
    };
  },
  needsRedis,
);
