// The ask API's bookkeeping on a real state folder with a clock of the test's own: limits
// held under puts at once, whose each ask is, deadlines and abandonment, and all of it again
// after a restart. (The HTTP around it is in test/hostile/ask-api.test.ts.)
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { newAskId } from '../../src/ask/ask-folder.js';
import { ABANDONED_MS, openRemoteAsks } from '../../src/remote/remote-asks.js';
import { quietLog } from '../support/log-capture.js';
import { makeTempDir, sampleBatch } from '../support/temp-dir.js';

const newId = () => newAskId(new Date(), randomBytes(16).toString('hex'));

/** Runs `fn` with a fresh state folder and clock, removed after. */
async function inScene(fn: (s: Awaited<ReturnType<typeof scene>>) => Promise<void>) {
  const s = await scene();
  try {
    await fn(s);
  } finally {
    await s.cleanup();
  }
}

async function scene() {
  const temp = await makeTempDir('o7-remote-asks-');
  let clock = 1_000_000;
  const open = () =>
    openRemoteAsks({ stateDir: temp.dir, log: quietLog(), now: () => clock, pollMs: 20 });
  return {
    ...temp,
    open,
    tick: (ms: number) => {
      clock += ms;
    },
    questionFiles: async (id: string) =>
      readdir(path.join(temp.dir, 'asks', id, 'qa')).catch(() => [] as string[]),
  };
}

const PUT = { batch: sampleBatch(1) };
const peek = new AbortController().signal;

test('ten puts at once against a limit of 3: three asked, seven refused, none past it', () =>
  inScene(async (s) => {
    const asks = await s.open();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => asks.put(newId(), 'ann', PUT, 3)),
    );
    assert.equal(results.filter((r) => 'created' in r && r.created).length, 3);
    assert.equal(results.filter((r) => 'status' in r && r.status === 429).length, 7);
    assert.equal((await readdir(path.join(s.dir, 'asks'))).length, 3);
    // the same id again at the limit is the same ask, not a refusal
    const [first] = await readdir(path.join(s.dir, 'asks'));
    assert.deepEqual(await asks.put(String(first), 'ann', PUT, 3), { created: false });
    assert.equal(
      ((await asks.put(String(first), 'bob', PUT, 3)) as { status: number }).status,
      409,
    );
  }));

test("after a restart an ask is still its holder's, its deadline still holds, and why it ended is kept", () =>
  inScene(async (s) => {
    const before = await s.open();
    const id = newId();
    assert.deepEqual(await before.put(id, 'ann', { ...PUT, waitMs: 60_000 }, 5), { created: true });
    const after = await s.open(); // the relay restarted
    assert.equal(((await after.state(id, 'bob', 0, peek)) as { status: number }).status, 404);
    assert.deepEqual(await after.state(id, 'ann', 0, peek), { state: 'waiting' });
    s.tick(59_000);
    await after.sweep();
    assert.deepEqual(await s.questionFiles(id), ['q-out-001.json'], 'not yet');
    s.tick(1000);
    await after.sweep();
    assert.deepEqual(await s.questionFiles(id), [], 'withdrawn at its deadline');
    const again = await s.open();
    assert.deepEqual(await again.state(id, 'ann', 0, peek), {
      state: 'withdrawn',
      why: 'its deadline passed',
    });
  }));

test('an ask nobody asks after for 10 minutes is withdrawn; one polled meanwhile is not', () =>
  inScene(async (s) => {
    const asks = await s.open();
    const left = newId();
    const watched = newId();
    await asks.put(left, 'ann', PUT, 5);
    await asks.put(watched, 'ann', PUT, 5);
    s.tick(ABANDONED_MS - 1000);
    assert.deepEqual(await asks.state(watched, 'ann', 0, peek), { state: 'waiting' });
    s.tick(1000);
    await asks.sweep();
    assert.deepEqual(await s.questionFiles(left), []);
    assert.deepEqual(await s.questionFiles(watched), ['q-out-001.json']);
    assert.deepEqual(await asks.state(left, 'ann', 0, peek), {
      state: 'withdrawn',
      why: 'its asker did not ask after it for 10 minutes',
    });
  }));
