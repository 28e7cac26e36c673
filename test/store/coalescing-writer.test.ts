import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCoalescingWriter } from '../../src/store/coalescing-writer.js';

/** A write whose completion the test controls, recording the state each write saw. */
function controlledWrites(read: () => number) {
  const snapshots: number[] = [];
  const pending: Array<{ finish: () => void; fail: (e: Error) => void }> = [];
  const write = () =>
    new Promise<void>((resolve, reject) => {
      snapshots.push(read());
      pending.push({ finish: resolve, fail: reject });
    });
  return { write, snapshots, pending };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createCoalescingWriter', () => {
  it('serves a burst of requests made during a write with one follow-up write', async () => {
    let state = 0;
    const writes = controlledWrites(() => state);
    const writer = createCoalescingWriter(writes.write);

    state = 1;
    const first = writer.request();
    const later: Promise<void>[] = [];
    for (let i = 2; i <= 50; i += 1) {
      state = i;
      later.push(writer.request());
    }
    await tick();
    assert.deepEqual(writes.snapshots, [1], 'only one write in flight');

    writes.pending[0]?.finish();
    await first;
    await tick();
    assert.deepEqual(writes.snapshots, [1, 50], 'one follow-up write with the latest state');

    writes.pending[1]?.finish();
    await Promise.all(later);
    await writer.idle();
    assert.equal(writes.snapshots.length, 2);
  });

  it('rejects the requests a failed write was serving, and the next request writes again', async () => {
    let state = 0;
    const writes = controlledWrites(() => state);
    const writer = createCoalescingWriter(writes.write);

    const first = writer.request();
    state = 1;
    const second = writer.request();
    writes.pending[0]?.fail(new Error('disk full'));
    await assert.rejects(first, /disk full/);
    await tick();
    writes.pending[1]?.fail(new Error('still full'));
    await assert.rejects(second, /still full/);

    state = 2;
    const third = writer.request();
    writes.pending[2]?.finish();
    await third;
    assert.deepEqual(writes.snapshots, [0, 1, 2]);
  });

  it('turns a synchronous throw in the write into a rejection', async () => {
    const writer = createCoalescingWriter(() => {
      throw new Error('boom');
    });
    await assert.rejects(writer.request(), /boom/);
    await writer.idle();
  });

  it('idle waits for the queued follow-up write too', async () => {
    let state = 0;
    const writes = controlledWrites(() => state);
    const writer = createCoalescingWriter(writes.write);
    void writer.request();
    state = 1;
    const queued = writer.request();
    let idle = false;
    const idled = writer.idle().then(() => {
      idle = true;
    });
    writes.pending[0]?.finish();
    await tick();
    assert.equal(idle, false, 'still writing the follow-up');
    writes.pending[1]?.finish();
    await idled;
    await queued;
    assert.deepEqual(writes.snapshots, [0, 1]);
  });
});
