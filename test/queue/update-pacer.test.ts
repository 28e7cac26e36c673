import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createUpdatePacer } from '../../src/queue/update-pacer.js';
import { waitFor } from '../support/wait.js';

test('after an edit, the next edits of that batch wait for the window to end, and the run is shown again once, when it does', async () => {
  let now = 1000;
  const shownAgain: string[] = [];
  const pacer = createUpdatePacer({
    everyMs: 30,
    clock: () => now,
    showAgain: (runDir) => shownAgain.push(runDir),
  });
  assert.equal(pacer.holds('a.1', '/runs/a'), false, 'never edited: goes at once');
  pacer.edited('a.1');
  for (let i = 0; i < 5; i += 1) assert.equal(pacer.holds('a.1', '/runs/a'), true);
  assert.equal(pacer.holds('b.1', '/runs/b'), false, 'other batches are not held');
  await waitFor(() => shownAgain.length === 1, 'the run shown again');
  assert.deepEqual(shownAgain, ['/runs/a'], 'once for five held edits');
  now += 30;
  assert.equal(pacer.holds('a.1', '/runs/a'), false, 'the window is over');
});

test('a window of 0 holds nothing', () => {
  const pacer = createUpdatePacer({ everyMs: 0, showAgain: () => assert.fail('nothing is held') });
  pacer.edited('a.1');
  assert.equal(pacer.holds('a.1', '/runs/a'), false);
});
