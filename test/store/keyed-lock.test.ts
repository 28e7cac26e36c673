import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createKeyedLock } from '../../src/store/keyed-lock.js';

/** A promise and the functions that settle it, for tasks a test finishes by hand. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every callback already queued run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('keyed lock', () => {
  it("runs one key's tasks one at a time, in call order", async () => {
    const lock = createKeyedLock();
    const started: string[] = [];
    const first = deferred();
    const second = deferred();
    const a = lock.run('run-a', async () => {
      started.push('first');
      await first.promise;
      return 1;
    });
    const b = lock.run('run-a', async () => {
      started.push('second');
      await second.promise;
      return 2;
    });
    const c = lock.run('run-a', async () => {
      started.push('third');
      return 3;
    });
    await settle();
    assert.deepEqual(started, ['first']);
    first.resolve();
    await settle();
    assert.deepEqual(started, ['first', 'second']);
    second.resolve();
    assert.deepEqual(await Promise.all([a, b, c]), [1, 2, 3]);
    assert.deepEqual(started, ['first', 'second', 'third']);
  });

  it("lets tasks of other keys run while one key's task is under way", async () => {
    const lock = createKeyedLock();
    const held = deferred();
    const slow = lock.run('run-a', () => held.promise);
    const other = await lock.run('run-b', async () => 'done');
    assert.equal(other, 'done');
    held.resolve();
    await slow;
  });

  it("gives a task's failure to its caller only; the next task of the key still runs", async () => {
    const lock = createKeyedLock();
    const failing = lock.run('run-a', async () => {
      throw new Error('disk full');
    });
    const next = lock.run('run-a', async () => 'after');
    await assert.rejects(failing, /disk full/);
    assert.equal(await next, 'after');
  });
});
