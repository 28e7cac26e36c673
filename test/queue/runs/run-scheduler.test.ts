import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createRunScheduler } from '../../../src/queue/runs/run-scheduler.js';
import { captureLog } from '../../support/log-capture.js';
import { waitFor } from '../../support/wait.js';

/** A logger whose lines can be read back. */
function capturingLog() {
  const { log, records: lines } = captureLog('debug');
  return { log, lines };
}

/** A sync whose calls stay under way until released, one by one or all at once. */
function heldSync() {
  const calls: string[] = [];
  const releases: (() => void)[] = [];
  let running = 0;
  let mostAtOnce = 0;
  return {
    calls,
    get mostAtOnce() {
      return mostAtOnce;
    },
    get running() {
      return running;
    },
    sync: (runDir: string) => {
      calls.push(runDir);
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      return new Promise<void>((resolve) => {
        releases.push(() => {
          running -= 1;
          resolve();
        });
      });
    },
    releaseAll() {
      for (const release of releases.splice(0)) release();
    },
  };
}

/** A scheduler whose syncs wait until released, logging to lines that can be read back. */
function heldScheduler(options: { concurrency?: number; closeGraceMs?: number } = {}) {
  const held = heldSync();
  const { log, lines } = capturingLog();
  const scheduler = createRunScheduler({ sync: held.sync, log, ...options });
  return { held, lines, scheduler };
}

describe('run scheduler', () => {
  test('runs collected before start are synced once at start, with the extra ones given', async () => {
    const { held, scheduler } = heldScheduler();
    scheduler.schedule('/runs/a');
    scheduler.schedule('/runs/a');
    assert.deepEqual(held.calls, []);
    scheduler.start(['/runs/b', '/runs/a']);
    await waitFor(() => held.calls.length === 2 || undefined, 'two syncs');
    assert.deepEqual([...held.calls].sort(), ['/runs/a', '/runs/b']);
    held.releaseAll();
    await scheduler.idle();
    assert.equal(held.calls.length, 2);
  });

  test('start tells the order of the runs due before any of their syncs begins', async () => {
    const { held, scheduler } = heldScheduler();
    scheduler.schedule('/runs/a');
    let callsWhenTold: string[] | undefined;
    const order = scheduler.start(['/runs/b'], (due) => {
      assert.deepEqual(due, ['/runs/a', '/runs/b']);
      callsWhenTold = [...held.calls];
    });
    assert.deepEqual(order, ['/runs/a', '/runs/b']);
    assert.deepEqual(callsWhenTold, [], 'told before any sync');
    await waitFor(() => held.calls.length === 2 || undefined, 'both synced');
    held.releaseAll();
    await scheduler.idle();
  });

  test('hints during a sync of a run ask for exactly one more sync of it, after the first', async () => {
    const { held, scheduler } = heldScheduler();
    scheduler.start([]);
    scheduler.schedule('/runs/a');
    await waitFor(() => held.running === 1 || undefined, 'first sync under way');
    scheduler.schedule('/runs/a');
    scheduler.schedule('/runs/a');
    assert.equal(held.mostAtOnce, 1);
    held.releaseAll();
    await waitFor(() => held.calls.length === 2 || undefined, 'second sync');
    assert.equal(held.mostAtOnce, 1, 'never two syncs of one run at once');
    held.releaseAll();
    await scheduler.idle();
    assert.equal(held.calls.length, 2);
  });

  test('hints while a sync waits for its turn are served by that sync, not by one more', async () => {
    const held = heldSync();
    const { log } = capturingLog();
    const scheduler = createRunScheduler({ sync: held.sync, log, concurrency: 1 });
    scheduler.start([]);
    scheduler.schedule('/runs/a');
    await waitFor(() => held.running === 1 || undefined, 'the sync of a under way');
    // b waits behind a for the only turn; the hints about it come before its sync reads it
    scheduler.schedule('/runs/b');
    scheduler.schedule('/runs/b');
    scheduler.schedule('/runs/b');
    held.releaseAll();
    await waitFor(() => held.calls.length === 2 || undefined, 'the sync of b');
    held.releaseAll();
    await scheduler.idle();
    assert.deepEqual(held.calls, ['/runs/a', '/runs/b']);
  });

  test('syncs at most `concurrency` runs at once', async () => {
    const { held, scheduler } = heldScheduler({ concurrency: 3 });
    scheduler.start(Array.from({ length: 10 }, (_, i) => `/runs/r${i}`));
    await waitFor(() => held.running === 3 || undefined, 'three under way');
    while (held.calls.length < 10) {
      held.releaseAll();
      await new Promise((resolve) => setImmediate(resolve));
    }
    held.releaseAll();
    await scheduler.idle();
    assert.equal(held.mostAtOnce, 3);
    assert.equal(new Set(held.calls).size, 10);
  });

  test('a failing sync is tried again after a doubling back-off, and says so', async () => {
    const { log, lines } = capturingLog();
    const at: number[] = [];
    const scheduler = createRunScheduler({
      log,
      retryBaseMs: 20,
      sync: async () => {
        at.push(Date.now());
        if (at.length < 3) throw new Error('disk on fire');
      },
    });
    scheduler.start(['/runs/a']);
    await waitFor(() => at.length === 3 || undefined, 'third attempt');
    await scheduler.idle();
    const gaps = [(at[1] as number) - (at[0] as number), (at[2] as number) - (at[1] as number)];
    assert.ok((gaps[0] as number) >= 19, `first retry after ${gaps[0]} ms`);
    assert.ok((gaps[1] as number) >= 39, `second retry after ${gaps[1]} ms`);
    const errors = lines.filter((l) => l.msg === 'could not sync run; will try again');
    assert.deepEqual(
      errors.map((l) => l.level),
      [50, 20],
      'an error at the first failure; the retry after it is a debug line',
    );
    assert.equal(errors[0]?.runDir, '/runs/a');
    await scheduler.close();
  });

  test('close: runs waiting for a turn never start, and a stuck sync is left after the grace', async () => {
    const { held, lines, scheduler } = heldScheduler({ concurrency: 2, closeGraceMs: 50 });
    scheduler.start(['/runs/a', '/runs/b', '/runs/c', '/runs/d']);
    await waitFor(() => held.running === 2 || undefined, 'two under way');
    await scheduler.close(); // the two under way never finish
    const left = lines.find((l) =>
      String(l.msg).startsWith('stopping while these runs still wait on Slack'),
    );
    assert.ok(left, 'says which runs it left');
    // under way, or waiting behind those
    assert.deepEqual([...(left.runs as string[])].sort(), [
      '/runs/a',
      '/runs/b',
      '/runs/c',
      '/runs/d',
    ]);
    held.releaseAll();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual([...held.calls].sort(), ['/runs/a', '/runs/b'], 'c and d never started');
    scheduler.schedule('/runs/e');
    assert.equal(held.calls.length, 2, 'nothing is scheduled after close');
  });

  test('close waits for syncs that finish within the grace, quietly', async () => {
    const { held, lines, scheduler } = heldScheduler({ closeGraceMs: 10_000 });
    scheduler.start(['/runs/a']);
    await waitFor(() => held.running === 1 || undefined, 'sync under way');
    let closed = false;
    const closing = scheduler.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(closed, false, 'still waiting for the sync under way');
    held.releaseAll();
    await closing;
    assert.equal(lines.filter((l) => l.level === 40).length, 0);
  });
});
