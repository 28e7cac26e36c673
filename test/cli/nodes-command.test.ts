import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import pino from 'pino';
import { formatNodeTable } from '../../src/cli/node-table.js';
import { acquireNodeLease } from '../../src/redis/node-lease.js';
import { connectRedis } from '../../src/redis/redis-connection.js';
import { processIsAlive } from '../../src/store/state-dir-lock.js';
import { makeRecord } from '../support/make-record.js';
import {
  portNoRedisListensOn,
  redisForSuite,
  withRedisServer,
} from '../support/redis-for-suite.js';
import { needsRedis, TEST_TLS_CA } from '../support/redis-server.js';
import { openTestRedisStore } from '../support/redis-store.js';
import { makeTempDir } from '../support/temp-dir.js';
import { runCli } from './run-cli.js';

const log = pino({ level: 'silent' });

describe('formatNodeTable', () => {
  test('one aligned line per node, sorted, this machine marked, ages in Redis time', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    const lines = formatNodeTable(
      [
        { node: 'laptop', live: false, lastHeartbeat: now - 3 * 3_600_000, openBatches: 1 },
        { node: 'ci-1', live: true, lastHeartbeat: now - 2000, openBatches: 12 },
        { node: 'old', live: false, lastHeartbeat: undefined, openBatches: 0 },
      ],
      now,
      'laptop',
    );
    assert.deepEqual(lines, [
      'node                   state    last heartbeat                                     open batches',
      'ci-1                   live     less than a minute ago (2026-01-01T11:59:58.000Z)  12',
      'laptop (this machine)  stopped  3 h ago (2026-01-01T09:00:00.000Z)                 1',
      'old                    stopped  never                                              0',
    ]);
    assert.deepEqual(formatNodeTable([], now, 'x'), ['No relay has used this Redis yet.']);
  });
});

describe('o7-slack-relay nodes', () => {
  const server = redisForSuite({ password: 'door' });
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  before(async () => {
    temp = await makeTempDir('o7-nodes-');
  });
  after(() => temp.cleanup());
  const urlWith = (password: string) => `redis://:${password}@127.0.0.1:${server().port}`;
  const nodes = (env: Record<string, string>) => runCli(['nodes'], env, temp.dir);

  it(
    'lists every node, whether it runs, its last heartbeat and its open batches',
    needsRedis,
    async () => {
      const url = urlWith('door');
      const ci = await openTestRedisStore({ url, node: 'ci-1', namespace: 'o7relay' });
      const laptop = await openTestRedisStore({ url, node: 'laptop', namespace: 'o7relay' });
      const leases = await connectRedis({ url, log });
      const lease = (node: string) =>
        acquireNodeLease({ connection: leases, node, log, host: 'box', isAlive: processIsAlive });
      const running = await lease('ci-1');
      try {
        await (await lease('laptop')).release();
        await ci.put(makeRecord('/ci/run', 1));
        await ci.put(makeRecord('/ci/run', 2, { status: 'submitting' }));
        await ci.put(makeRecord('/ci/run', 3, { status: 'answered' }));
        await laptop.put({ ...makeRecord('/home/run', 1), key: 'laptop.home.1' });

        const { code, out, err } = await nodes({ RELAY_REDIS_URL: url, RELAY_NODE: 'laptop' });
        assert.equal(code, 0, err);
        const lines = out.trimEnd().split('\n');
        assert.match(lines[0] ?? '', /^node +state +last heartbeat +open batches$/);
        assert.match(lines[1] ?? '', /^ci-1 +live +less than a minute ago \(\d{4}-.+Z\) +2$/);
        assert.match(
          lines[2] ?? '',
          /^laptop \(this machine\) +stopped +less than a minute ago .* +1$/,
        );
        assert.equal(lines.length, 3);
      } finally {
        await running.release();
        await leases.close();
        await Promise.all([ci.close(), laptop.close()]);
      }
    },
  );

  it('reaches Redis over TLS (rediss://) with its certificate trusted', needsRedis, async () => {
    await withRedisServer({ tls: true, password: 'door' }, async (tls) => {
      const { code, out, err } = await nodes({
        RELAY_REDIS_URL: `rediss://:door@127.0.0.1:${tls.port}`,
        NODE_EXTRA_CA_CERTS: TEST_TLS_CA,
      });
      assert.equal(code, 0, err);
      assert.equal(out, 'No relay has used this Redis yet.\n');
    });
  });

  it(
    'says what to set without RELAY_REDIS_URL, and names it when Redis refuses (exit 2)',
    needsRedis,
    async () => {
      const unset = await nodes({});
      assert.equal(unset.code, 2);
      assert.match(
        unset.err,
        /^nodes lists the relays that share one Redis, and RELAY_REDIS_URL is not set\./,
      );

      const refused = await nodes({ RELAY_REDIS_URL: urlWith('hunter2'), RELAY_NODE: 'x' });
      assert.equal(refused.code, 2);
      assert.match(
        refused.err,
        /RELAY_REDIS_URL=redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\) refused the relay's credentials \(WRONGPASS/,
      );
      assert.doesNotMatch(refused.err, /hunter2/);

      const gone = `redis://127.0.0.1:${await portNoRedisListensOn()}`;
      const unreachable = await nodes({ RELAY_REDIS_URL: gone, RELAY_NODE: 'x' });
      assert.equal(unreachable.code, 2);
      assert.match(
        unreachable.err,
        /^Redis at 127\.0\.0\.1:\d+ \(RELAY_REDIS_URL=redis:\/\/127\.0\.0\.1:\d+\) cannot be reached/,
      );

      const bad = await nodes({ RELAY_REDIS_URL: 'http://x' });
      assert.equal(bad.code, 2);
      assert.match(
        bad.err,
        /^Shared mode is not configured right\.\n {2}- RELAY_REDIS_URL must start with redis:\/\//,
      );
    },
  );
});
