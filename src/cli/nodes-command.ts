import type { Logger } from 'pino';
import type { SharedConfig } from '../config/config-schema.js';
import { FINAL_STATUSES } from '../core/batch/batch-record.js';
import { connectRedis } from '../redis/redis-connection.js';
import { redisKeys } from '../redis/redis-keys.js';
import { readRedisRecords } from '../store/redis/redis-records.js';
import { formatNodeTable, type NodeRow } from './node-table.js';

type Io = { out: (line: string) => void; err: (line: string) => void };

/**
 * `o7-slack-relay nodes`: every relay that has used the shared Redis, whether it runs, its
 * last heartbeat and its open batches. Without `RELAY_REDIS_URL` says what to set (exit 2);
 * a Redis that cannot be used throws the same `RelayError` the relay's start would.
 */
export async function runNodes(
  shared: SharedConfig | undefined,
  io: Io,
  deps: { log: Logger; namespace?: string },
): Promise<number> {
  if (!shared) {
    io.err(
      'nodes lists the relays that share one Redis, and RELAY_REDIS_URL is not set. Set it (in the environment or .env) to the Redis the relays use, e.g. rediss://user:password@host:6380.',
    );
    return 2;
  }
  const keys = redisKeys(deps.namespace);
  const connection = await connectRedis({
    url: shared.redisUrl,
    log: deps.log,
    clientName: `o7-nodes:${shared.node}`,
  });
  try {
    const [now = '0', ...flat] = await connection.call('listing nodes', (c) =>
      c.readNodes(keys.nodes, keys.leasePrefix),
    );
    const rows = new Map<string, NodeRow>();
    for (let i = 0; i + 2 < flat.length; i += 3) {
      const node = flat[i] as string;
      rows.set(node, {
        node,
        lastHeartbeat: Number(flat[i + 1]),
        live: flat[i + 2] === '1',
        openBatches: 0,
      });
    }
    const { snapshot } = await readRedisRecords(connection, keys, deps.log);
    for (const { record } of snapshot) {
      if (FINAL_STATUSES.includes(record.status) || record.node === undefined) continue;
      const row = rows.get(record.node) ?? {
        node: record.node,
        live: false,
        lastHeartbeat: undefined,
        openBatches: 0,
      };
      row.openBatches += 1;
      rows.set(record.node, row);
    }
    for (const line of formatNodeTable([...rows.values()], Number(now), shared.node)) io.out(line);
    return 0;
  } finally {
    await connection.close();
  }
}
