import type { Logger } from 'pino';
import type { RedisConnection } from '../../redis/redis-connection.js';
import type { RedisKeys } from '../../redis/redis-keys.js';
import { parseStoredRecord, type VersionedRecord } from '../record-mirror.js';

/** Reading every record may take longer than one action may wait. */
const READ_ALL_DEADLINE_MS = 30_000;

/**
 * Every record in Redis, with the clock as it was before the first read (see
 * `RecordMirror.reload`). Records that cannot be read are logged and left out.
 */
export async function readRedisRecords(
  connection: RedisConnection,
  keys: RedisKeys,
  log: Logger,
): Promise<{ snapshot: VersionedRecord[]; clock: number }> {
  return connection.call(
    'loading batch records',
    async (client) => {
      const clock = Number((await client.get(keys.clock)) ?? 0);
      const members = (await client.sMembers(keys.runs)).map(String);
      // sent together: node-redis pipelines commands issued in the same tick
      const runs = await Promise.all(
        members.map((member) => client.hGetAll(keys.runOfMember(member))),
      );
      const snapshot: VersionedRecord[] = [];
      runs.forEach((fields, i) => {
        for (const [seq, value] of Object.entries(fields as Record<string, unknown>)) {
          const parsed = parseStoredRecord(String(value));
          if (typeof parsed === 'string') {
            log.warn(
              { run: members[i], seq, problem: parsed },
              'a batch record in Redis cannot be read; leaving it out',
            );
          } else {
            snapshot.push(parsed);
          }
        }
      });
      return { snapshot, clock };
    },
    { deadlineMs: READ_ALL_DEADLINE_MS },
  );
}
