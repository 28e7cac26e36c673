import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { holdDigestLease, sharedDigestMessages } from '../../src/cluster/shared-digests.js';
import type { RedisConnection } from '../../src/redis/redis-connection.js';
import { redisKeys } from '../../src/redis/redis-keys.js';
import { redisConnectionsForSuite } from '../support/redis-for-suite.js';
import { needsRedis } from '../support/redis-server.js';
import { freshNamespace } from '../support/redis-store.js';
import { waitFor } from '../support/wait.js';

const log = pino({ level: 'silent' });
// the time to live is many renewals, so that a renewal late on a busy machine does not lapse
const quick = { everyMs: 50, ttlMs: 1000 };

describe('the digests in shared mode', () => {
  const { connect } = redisConnectionsForSuite();

  it(
    'a digest recorded by one relay is read by another, and forgotten for both',
    needsRedis,
    async () => {
      const keys = redisKeys(freshNamespace());
      const one = sharedDigestMessages(await connect(), keys, log);
      const other = sharedDigestMessages(await connect(), keys, log);
      await one.set('C1', { ts: '1.000100', keys: ['k1', 'k2'] });
      assert.deepEqual(await other.get('C1'), { ts: '1.000100', keys: ['k1', 'k2'] });
      assert.deepEqual(await other.channels(), ['C1']);
      await other.set('C1', undefined);
      assert.equal(await one.get('C1'), undefined);
      assert.deepEqual(await one.channels(), []);
    },
  );

  it(
    'an entry in Redis that does not fit is none, so a new digest is posted',
    needsRedis,
    async () => {
      const keys = redisKeys(freshNamespace());
      const connection = await connect();
      await connection.call('test', (c) => c.hSet(keys.digests, 'C1', '{"ts":5}'));
      await connection.call('test', (c) => c.hSet(keys.digests, 'C2', 'not json'));
      const messages = sharedDigestMessages(connection, keys, log);
      assert.equal(await messages.get('C1'), undefined);
      assert.equal(await messages.get('C2'), undefined);
    },
  );

  it(
    'one relay keeps the digests at a time; when it stops another takes over, and when it goes silent too',
    needsRedis,
    async () => {
      const keys = redisKeys(freshNamespace());
      const heard: string[] = [];
      const own = new Map<string, RedisConnection>();
      const lease = async (node: string) => {
        const connection = await connect();
        own.set(node, connection);
        return holdDigestLease({
          connection,
          keys,
          node,
          log,
          changed: (held) => heard.push(`${node} ${held ? 'keeps' : 'stops'}`),
          ...quick,
        });
      };
      const a = await lease('a');
      await waitFor(() => a.holds(), 'a keeping the digests');
      const b = await lease('b');
      const c = await lease('c');
      // a few renewals later, a still keeps them alone
      await new Promise((resolve) => setTimeout(resolve, 5 * quick.everyMs));
      assert.deepEqual([a.holds(), b.holds(), c.holds()], [true, false, false]);

      // a stops cleanly: its lease is freed, and one of the others takes it at its next try
      await a.release();
      const next = await waitFor(() => [b, c].find((l) => l.holds()), 'b or c keeping them');
      const [nextName, rest, restName] = next === b ? ['b', c, 'c'] : ['c', b, 'b'];
      await new Promise((resolve) => setTimeout(resolve, 5 * quick.everyMs));
      assert.equal(rest.holds(), false, 'only one of them');

      // the keeper loses Redis (as good as a SIGKILL, for the others): once its lease has
      // lived out, it stops keeping and the last one takes over
      const lost = Date.now();
      await own.get(nextName)?.close();
      await waitFor(() => rest.holds(), 'the last relay keeping the digests');
      assert.ok(Date.now() - lost >= quick.ttlMs * 0.8, 'not before the lease ran out');
      await waitFor(() => !next.holds(), 'the silent one no longer keeping them');
      await rest.release();
      await next.release();
      assert.deepEqual(heard.slice(0, 2), ['a keeps', `${nextName} keeps`]);
      assert.deepEqual(
        new Set(heard.slice(2)),
        new Set([`${nextName} stops`, `${restName} keeps`]),
      );
    },
  );
});
