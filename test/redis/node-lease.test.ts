import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import pino from 'pino';
import { ErrorCode } from '../../src/errors.js';
import {
  acquireNodeLease,
  type LeaseHolder,
  type NodeLeaseOptions,
  NodeTakenError,
} from '../../src/redis/node-lease.js';
import { redisKeys } from '../../src/redis/redis-keys.js';
import { processIsAlive } from '../../src/store/state-dir-lock.js';
import { adminClient, redisConnectionsForSuite } from '../support/redis-for-suite.js';
import { needsRedis } from '../support/redis-server.js';
import { freshNamespace } from '../support/redis-store.js';
import { waitFor } from '../support/wait.js';

const log = pino({ level: 'silent' });
// short, so that expiry is seen within a test; the time to live is 15 heartbeats, so that a
// heartbeat delayed on a busy machine does not let the lease lapse
const quick = { heartbeatMs: 100, ttlMs: 1500 };

describe('the node lease', () => {
  const { connect, server } = redisConnectionsForSuite();
  const relay = async (
    namespace: string,
    host: string,
    more: Partial<NodeLeaseOptions> = {},
  ): Promise<NodeLeaseOptions> => ({
    connection: await connect(),
    node: 'ci-3',
    log,
    namespace,
    host,
    isAlive: processIsAlive,
    ...quick,
    ...more,
  });

  it(
    'a second live relay with the same RELAY_NODE is refused, naming the variable',
    needsRedis,
    async () => {
      const namespace = freshNamespace();
      const first = await acquireNodeLease(await relay(namespace, 'box-1'));
      try {
        await assert.rejects(
          acquireNodeLease(await relay(namespace, 'box-2')),
          (error: unknown) => {
            assert.ok(error instanceof NodeTakenError);
            assert.equal(error.code, ErrorCode.NodeTaken);
            assert.match(
              error.message,
              /^RELAY_NODE=ci-3 is held by the relay with pid \d+ on host box-1, since .+, which is still renewing it\. Stop that relay, or give this one another name with RELAY_NODE\./,
            );
            return true;
          },
        );
        // the heartbeat keeps it held well past its time to live
        await new Promise((resolve) => setTimeout(resolve, 2 * quick.ttlMs));
        await assert.rejects(acquireNodeLease(await relay(namespace, 'box-2')), NodeTakenError);
        const other = await acquireNodeLease(await relay(namespace, 'box-2', { node: 'ci-4' }));
        await other.release();
      } finally {
        await first.release();
      }
    },
  );

  it('a clean stop frees the name at once', needsRedis, async () => {
    const namespace = freshNamespace();
    const first = await acquireNodeLease(await relay(namespace, 'box-1', { ttlMs: 60_000 }));
    await first.release();
    const second = await acquireNodeLease(await relay(namespace, 'box-2', { ttlMs: 60_000 }));
    await second.release();
  });

  it('a crashed relay’s name is free once its lease expires', needsRedis, async () => {
    const namespace = freshNamespace();
    const crashing = await relay(namespace, 'box-1');
    await acquireNodeLease(crashing);
    await crashing.connection.close(); // no release, no more heartbeats: as after a SIGKILL
    const options = await relay(namespace, 'box-2');
    await assert.rejects(acquireNodeLease(options), NodeTakenError);
    const taken = await waitFor(
      () => acquireNodeLease(options).catch(() => undefined),
      'the lease to expire',
    );
    await taken.release();
  });

  it('a relay that crashed on this machine is taken over at once', needsRedis, async () => {
    const namespace = freshNamespace();
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    assert.equal(processIsAlive(gone), false);
    const crashed = await relay(namespace, 'this-box', { pid: gone, ttlMs: 60_000 });
    await acquireNodeLease(crashed);
    await crashed.connection.close();
    const lease = await acquireNodeLease(await relay(namespace, 'this-box', { ttlMs: 60_000 }));
    await lease.release();
  });

  it('records each heartbeat in Redis time, for listing nodes', needsRedis, async () => {
    const namespace = freshNamespace();
    const keys = redisKeys(namespace);
    const connection = await connect();
    const lease = await acquireNodeLease(await relay(namespace, 'box-1'));
    try {
      const first = Number(await connection.client.hGet(keys.nodes, 'ci-3'));
      assert.ok(first > Date.parse('2020-01-01'));
      await waitFor(
        async () => Number(await connection.client.hGet(keys.nodes, 'ci-3')) > first,
        'a later heartbeat',
      );
    } finally {
      await lease.release();
    }
    assert.ok(Number(await connection.client.hGet(keys.nodes, 'ci-3')) > 0, 'kept after a stop');
  });

  it(
    'a lease lost in an outage is taken back, or reported once if another relay took it',
    needsRedis,
    async () => {
      const namespace = freshNamespace();
      const keys = redisKeys(namespace);
      const admin = await adminClient(server().url);
      const lease = await acquireNodeLease(await relay(namespace, 'box-1'));
      const lost: Array<LeaseHolder | undefined> = [];
      lease.onLost((holder) => lost.push(holder));
      try {
        await admin.del(keys.lease('ci-3')); // expired while away
        await waitFor(async () => (await admin.exists(keys.lease('ci-3'))) === 1, 'taken back');
        assert.equal(lost.length, 0);
        await admin.set(
          keys.lease('ci-3'),
          JSON.stringify({ token: 't', host: 'box-9', pid: 7, since: 'x' }),
        );
        await waitFor(() => lost.length === 1, 'the loss reported');
        assert.equal(lost[0]?.host, 'box-9');
        await new Promise((resolve) => setTimeout(resolve, 5 * quick.heartbeatMs));
        assert.equal(lost.length, 1);
      } finally {
        await lease.release();
        await admin.close();
      }
    },
  );
});
