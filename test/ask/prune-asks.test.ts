import assert from 'node:assert/strict';
import { access, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import { pruneFinishedAsks } from '../../src/ask/prune-asks.js';
import type { BatchRecord } from '../../src/core/batch/batch-record.js';
import { openFileStateStore } from '../../src/store/file-state-store.js';
import { makeTempDir } from '../support/temp-dir.js';

const log = pino({ level: 'silent' });
const NOW = new Date('2026-06-01T12:00:00Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();

function record(runDir: string, status: BatchRecord['status'], updatedAt: string): BatchRecord {
  return {
    key: `${path.basename(runDir)}.1`,
    runDir,
    seq: 1,
    fingerprint: 'f'.repeat(64),
    status,
    drafts: {},
    createdAt: updatedAt,
    updatedAt,
  };
}

test('finished asks older than the grace period are removed and forgotten; others stay', async () => {
  const { dir, cleanup } = await makeTempDir();
  const asks = path.join(dir, 'state', 'asks');
  const store = await openFileStateStore(path.join(dir, 'state'), { log });
  try {
    const ask = (name: string) => path.join(asks, name);
    for (const name of ['old-answered', 'old-cancelled', 'new-answered', 'still-open', 'unknown']) {
      await mkdir(path.join(ask(name), 'qa'), { recursive: true });
    }
    await store.put(record(ask('old-answered'), 'answered', hoursAgo(2)));
    await store.put(record(ask('old-cancelled'), 'cancelled', hoursAgo(3)));
    await store.put(record(ask('new-answered'), 'answered', hoursAgo(0.5)));
    await store.put(record(ask('still-open'), 'open', hoursAgo(5)));

    const removed = await pruneFinishedAsks({ asksRoot: asks, store, log, now: () => NOW });
    assert.equal(removed, 2);
    assert.deepEqual((await readdir(asks)).sort(), ['new-answered', 'still-open', 'unknown']);
    assert.deepEqual(store.forRun(ask('old-answered')), []);
    assert.equal(store.forRun(ask('new-answered')).length, 1);

    // Forgotten on disk too: a reopened store does not know them.
    await store.close();
    const reopened = await openFileStateStore(path.join(dir, 'state'), { log });
    assert.deepEqual(reopened.forRun(ask('old-cancelled')), []);
    assert.equal(reopened.forRun(ask('still-open')).length, 1);
    await reopened.close();
    await assert.rejects(access(ask('old-answered')));
  } finally {
    await store.close().catch(() => undefined);
    await cleanup();
  }
});

test('no asks folder yet is not an error', async () => {
  const { dir, cleanup } = await makeTempDir();
  const store = await openFileStateStore(path.join(dir, 'state'), { log });
  assert.equal(
    await pruneFinishedAsks({ asksRoot: path.join(dir, 'nope'), store, log, now: () => NOW }),
    0,
  );
  await store.close();
  await cleanup();
});
