import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createListAhead } from '../../../src/queue/runs/list-ahead.js';
import { waitFor } from '../../support/wait.js';

/** A listing whose calls stay under way until released, each answered with its run's name. */
function heldList() {
  const calls: string[] = [];
  const releases = new Map<string, (names: string[]) => void>();
  const failures = new Map<string, (err: Error) => void>();
  return {
    calls,
    get underWay() {
      return releases.size;
    },
    list: (runDir: string) => {
      calls.push(runDir);
      return new Promise<string[]>((resolve, reject) => {
        releases.set(runDir, resolve);
        failures.set(runDir, reject);
      });
    },
    release(runDir: string, names = [`${runDir}-names`]) {
      releases.get(runDir)?.(names);
      releases.delete(runDir);
      failures.delete(runDir);
    },
    fail(runDir: string, err: Error) {
      failures.get(runDir)?.(err);
      releases.delete(runDir);
      failures.delete(runDir);
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('list ahead', () => {
  test('lists runs in the order given, at most `width` at once, each handed over once', async () => {
    const held = heldList();
    const ahead = createListAhead({ list: held.list, width: 2 });
    ahead.start(['a', 'b', 'c', 'd']);
    assert.deepEqual(held.calls, ['a', 'b']);
    held.release('a');
    await tick();
    assert.deepEqual(held.calls, ['a', 'b', 'c']);
    assert.deepEqual(await ahead.take('a'), ['a-names']);
    assert.equal(ahead.take('a'), undefined, 'handed over once');
    held.release('b');
    held.release('c');
    await waitFor(() => held.calls.length === 4 || undefined, 'd listed');
    held.release('d');
    assert.deepEqual(await ahead.take('d'), ['d-names']);
  });

  test('a run its sync reaches first is left to the sync, and not listed after', async () => {
    const held = heldList();
    const ahead = createListAhead({ list: held.list, width: 1 });
    ahead.start(['a', 'b', 'c']);
    assert.equal(ahead.take('c'), undefined, 'not listed yet');
    held.release('a');
    await tick();
    held.release('b');
    await tick();
    assert.deepEqual(held.calls, ['a', 'b']);
  });

  test('a hint after a listing started throws it away; one before leaves it to be made', async () => {
    const held = heldList();
    const ahead = createListAhead({ list: held.list, width: 1 });
    ahead.start(['a', 'b']);
    ahead.forget('a'); // under way: it may miss what the hint is about
    ahead.forget('b'); // not started: its listing will come after the hint
    assert.equal(ahead.take('a'), undefined);
    held.release('a');
    await tick();
    assert.deepEqual(held.calls, ['a', 'b']);
    held.release('b');
    assert.deepEqual(await ahead.take('b'), ['b-names']);
  });

  test('a failed listing is handed to the sync as it failed, and one never taken is quiet', async () => {
    const held = heldList();
    const ahead = createListAhead({ list: held.list, width: 2 });
    ahead.start(['a', 'b']);
    held.fail('a', Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }));
    held.fail('b', new Error('ENOENT: gone')); // never taken: no unhandled rejection
    await assert.rejects(ahead.take('a') as Promise<string[]>, /EACCES/);
    await tick();
  });

  test('pauses once `mostWaiting` listings wait for their syncs, and goes on as they are taken', async () => {
    const held = heldList();
    const ahead = createListAhead({ list: held.list, width: 4, mostWaiting: 2 });
    ahead.start(['a', 'b', 'c']);
    held.release('a');
    held.release('b');
    await tick();
    assert.deepEqual(held.calls, ['a', 'b']);
    await ahead.take('a');
    assert.deepEqual(held.calls, ['a', 'b', 'c']);
  });
});
