import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode } from '../../../src/errors.js';
import { RedisUnavailableError } from '../../../src/redis/redis-connection.js';
import { redisKeys } from '../../../src/redis/redis-keys.js';
import { captureLog } from '../../support/log-capture.js';
import { makeRecord } from '../../support/make-record.js';
import { adminClient, redisForSuite } from '../../support/redis-for-suite.js';
import { needsRedis } from '../../support/redis-server.js';
import { freshNamespace, openTestRedisStore } from '../../support/redis-store.js';
import { waitFor } from '../../support/wait.js';

describe('the Redis store beyond the contract', () => {
  const redisServer = redisForSuite({ aof: true });
  const url = () => redisServer().url;

  type TestStore = Awaited<ReturnType<typeof openTestRedisStore>>;

  /** Opens the stores of two nodes on one fresh namespace, runs `body` with them, closes both. */
  async function withTwoNodes(
    body: (a: TestStore, b: TestStore) => Promise<void>,
    [first, second] = ['a', 'b'],
  ): Promise<void> {
    const namespace = freshNamespace();
    const a = await openTestRedisStore({ url: url(), node: first, namespace });
    const b = await openTestRedisStore({ url: url(), node: second, namespace });
    try {
      await body(a, b);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }

  it(
    'forRun and forget are about this node’s runs; get and all see every node',
    needsRedis,
    async () => {
      await withTwoNodes(
        async (a, b) => {
          const mine = makeRecord('/home/me/runs/x', 1);
          const theirs = { ...makeRecord('/home/me/runs/x', 1), key: 'ci-1.x.1' };
          await a.put(mine);
          await b.put(theirs);
          await waitFor(
            () => a.all().length === 2 && b.all().length === 2,
            'both records everywhere',
          );
          assert.deepEqual(a.forRun('/home/me/runs/x'), [{ ...mine, node: 'laptop' }]);
          assert.deepEqual(b.forRun('/home/me/runs/x'), [{ ...theirs, node: 'ci-1' }]);
          assert.equal(a.get('ci-1.x.1')?.node, 'ci-1');
          await b.forget('/home/me/runs/x');
          await waitFor(() => a.all().length === 1, 'the forget of ci-1 seen by laptop');
          assert.equal(a.get(mine.key)?.node, 'laptop');
        },
        ['laptop', 'ci-1'],
      );
    },
  );

  it(
    'a batch key is one batch across nodes: another node’s put of it is refused',
    needsRedis,
    async () => {
      await withTwoNodes(async (a, b) => {
        const record = makeRecord('/same/path', 1);
        await a.put(record);
        await assert.rejects(
          b.put(record),
          /batch key .* is already used by another batch \(a:[0-9a-f]+:1\), not by run \/same\/path seq 1 of node b; in shared mode batch keys must be unique across nodes/,
        );
        // a relay may still update another node's batch: a click on any relay
        const updated = await b.update(record.key, (current) => ({ ...current, claimedBy: 'U1' }));
        assert.equal(updated?.node, 'a');
        assert.equal(updated?.claimedBy, 'U1');
      });
    },
  );

  it('update finds a record this relay has not heard of yet', needsRedis, async () => {
    await withTwoNodes(async (a, b) => {
      const record = makeRecord('/r', 1);
      // b's copy learns of the put by the feed; the update must not wait for that
      await Promise.all([a.put(record), b.connection.call('x', (c) => c.ping())]);
      const updated = await b.update(record.key, (current) => ({ ...current, assignee: 'U2' }));
      assert.equal(updated?.assignee, 'U2');
      await waitFor(() => a.get(record.key)?.assignee === 'U2', 'a sees the update');
    });
  });

  it(
    'writes while Redis is down say "try again" at once; reads go on; back, it catches up',
    needsRedis,
    async () => {
      const live = redisServer();
      await withTwoNodes(async (a, b) => {
        const kept = makeRecord('/r', 1, { drafts: { q: 'before the outage' } });
        const doomed = makeRecord('/gone', 1);
        await a.put(kept);
        await b.put(doomed);
        await waitFor(() => b.all().length === 2, 'b has both');
        await live.stop();
        await waitFor(() => !a.connection.ready, 'a notices');
        // refused at once: the reason is the lost connection, not a deadline waited out
        const atOnce = (error: unknown) =>
          error instanceof RedisUnavailableError &&
          error.code === ErrorCode.RedisUnavailable &&
          /try again in a moment/.test(error.message) &&
          !/no answer within/.test(error.message);
        await assert.rejects(
          a.update(kept.key, (current) => ({ ...current, claimedBy: 'U1' })),
          atOnce,
        );
        await assert.rejects(a.put(makeRecord('/r', 2)), atOnce);
        assert.equal(a.get(kept.key)?.drafts.q, 'before the outage');
        assert.equal(a.all().length, 2);

        await live.restart(); // AOF: every write made before the stop is there
        await waitFor(() => a.connection.ready && b.connection.ready, 'both back');
        await b.forget('/gone');
        await b.update(kept.key, (current) => ({ ...current, claimedBy: 'U9' }));
        await waitFor(
          () => a.get(doomed.key) === undefined && a.get(kept.key)?.claimedBy === 'U9',
          'a catches up with what b did',
        );
        assert.equal(a.get(kept.key)?.drafts.q, 'before the outage');
      });
    },
  );

  it('changes made while a relay was cut off reach it when it reconnects', needsRedis, async () => {
    await withTwoNodes(async (a, b) => {
      const admin = await adminClient(url());
      try {
        const stays = makeRecord('/r', 1);
        const goes = makeRecord('/old', 1);
        await b.put(stays);
        await b.put(goes);
        await waitFor(() => a.all().length === 2, 'a has both');
        const id = await a.connection.call('id', (c) => c.clientId());
        // a's connection drops and comes back after a back-off; b writes in that gap, so a
        // does not hear of it on the feed and must reload
        await admin.sendCommand(['CLIENT', 'KILL', 'ID', String(id)]);
        await b.forget('/old');
        await b.put(makeRecord('/new', 1, { drafts: { q: 'while a was away' } }));
        await b.update(stays.key, (current) => ({ ...current, status: 'answered' }));
        await waitFor(
          () =>
            a.get(goes.key) === undefined &&
            a.get(makeRecord('/new', 1).key)?.drafts.q === 'while a was away' &&
            a.get(stays.key)?.status === 'answered',
          'a catches up',
        );
      } finally {
        await admin.close();
      }
    });
  });

  it(
    'a record in Redis that cannot be read is logged and left out, not fatal',
    needsRedis,
    async () => {
      const namespace = freshNamespace();
      const keys = redisKeys(namespace);
      const admin = await adminClient(url());
      const { log, records: lines } = captureLog('warn');
      try {
        const a = await openTestRedisStore({ url: url(), node: 'a', namespace });
        const good = makeRecord('/r', 1);
        await a.put(good);
        await a.close();
        await admin.hSet(keys.run('a', '/r'), '2', '7|{"not":"a record"}');
        const again = await openTestRedisStore({ url: url(), node: 'a', namespace, log });
        try {
          assert.deepEqual(again.all(), [{ ...good, node: 'a' }]);
          assert.ok(lines.some((l) => /cannot be read; leaving it out/.test(String(l.msg))));
        } finally {
          await again.close();
        }
      } finally {
        await admin.close();
      }
    },
  );
});
