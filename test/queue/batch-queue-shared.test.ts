import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import type { BatchRecord } from '../../src/core/batch/batch-record.js';
import { createBatchQueue } from '../../src/queue/batch-queue.js';
import type { Presenter } from '../../src/queue/presenter.js';
import type { RunOwners } from '../../src/queue/runs/run-owners.js';
import { redisForSuite } from '../support/redis-for-suite.js';
import { needsRedis } from '../support/redis-server.js';
import { freshNamespace, openTestRedisStore } from '../support/redis-store.js';
import { makeTempDir, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const log = pino({ level: process.env.TEST_LOG ?? 'silent' });
const NODE = 'node-a';

/** Every run of this test is this node's: nothing is asked of another relay. */
const noOtherOwners: RunOwners = {
  holds: (record) => (record.node ?? NODE) === NODE,
  batchOf: async () => undefined,
  submit: async () => ({ kind: 'unknown' }),
  cancel: async () => ({ kind: 'unknown' }),
};

/** A presenter that keeps every record it is asked to show. */
function recording(shown: BatchRecord[]): Presenter {
  return {
    async sync(record) {
      shown.push(record);
      return { channel: 'C1', ts: `ts-${record.seq}` };
    },
    async tellRefused() {
      return true;
    },
  };
}

const oneTap = (seq: number) => ({
  seq,
  questions: [{ id: 'go', type: 'yes-no', prompt: `Step ${seq}?` }],
});

describe('batch queue in shared mode (Redis store)', () => {
  const redisServer = redisForSuite();

  /** A queue of this node on a fresh namespace of the test server, recording what it shows. */
  async function openSharedQueue(retryBaseMs?: number) {
    const { dir, cleanup } = await makeTempDir();
    const store = await openTestRedisStore({
      url: redisServer().url,
      node: NODE,
      namespace: freshNamespace(),
    });
    const shown: BatchRecord[] = [];
    const queue = createBatchQueue({
      store,
      presenter: recording(shown),
      log,
      settleMs: 50,
      roots: [path.join(dir, 'runs')],
      ...(retryBaseMs !== undefined ? { retryBaseMs } : {}),
      shared: { node: NODE, owners: noOtherOwners },
    });
    const close = async () => {
      await queue.close();
      await store.close();
      await cleanup();
    };
    return { dir, shown, queue, close };
  }

  // The Redis store shows a new record once Redis has it (the file store at once): a batch
  // opened by the only sync its run gets must still be shown.
  it(
    'a batch on disk at start is shown, and so is the next one of its run once it is answered',
    needsRedis,
    async () => {
      const { dir, shown, queue, close } = await openSharedQueue();
      try {
        const run = path.join(dir, 'runs', 'run-a');
        await mkdir(run, { recursive: true });
        await writeQuestionFile(run, 1, oneTap(1));
        await writeQuestionFile(run, 2, oneTap(2));
        // the watcher's first scan: one event for the run, before the queue starts
        queue.notify({ type: 'qa-file', runDir: run, name: 'q-out-001.json' });
        queue.start();
        await queue.idle();
        assert.deepEqual(
          shown.map((r) => [r.seq, r.status]),
          [[1, 'open']],
        );
        const first = shown[0] as BatchRecord;
        const outcome = await queue.actions.submit(first.key, {
          revision: first.fingerprint.slice(0, 8),
          by: 'U1',
          tapped: { questionId: 'go', answer: true },
        });
        assert.equal(outcome.kind, 'answered');
        await queue.idle();
        assert.deepEqual(
          shown.map((r) => [r.seq, r.status]),
          [
            [1, 'open'],
            [1, 'answered'],
            [2, 'open'],
          ],
        );
      } finally {
        await close();
      }
    },
  );

  it('a batch written while Redis is away is shown once it is back', needsRedis, async () => {
    const redis = redisServer();
    const { dir, shown, queue, close } = await openSharedQueue(20);
    try {
      queue.start();
      await redis.stop();
      const run = path.join(dir, 'runs', 'run-b');
      await mkdir(run, { recursive: true });
      await writeQuestionFile(run, 1, oneTap(1));
      // the one event the watcher gives for the new file, while Redis is away
      queue.notify({ type: 'qa-file', runDir: run, name: 'q-out-001.json' });
      await queue.idle();
      assert.equal(shown.length, 0, 'nothing shown without a stored record');
      await redis.restart();
      await waitFor(() => shown.length > 0, 'the batch shown once Redis is back', 30_000);
      assert.deepEqual(
        shown.map((r) => [r.seq, r.status]),
        [[1, 'open']],
      );
    } finally {
      await close();
    }
  });
});
