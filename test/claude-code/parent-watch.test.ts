import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { watchParent } from '../../src/claude-code/parent-watch.js';
import { waitFor } from '../support/wait.js';

/** A process tree to change under the watch: our parent, and each process's name and parent. */
function tree(ppid: number, stats: Record<number, { name: string; ppid: number }>) {
  const state = { ppid, stats };
  return {
    state,
    tree: { ppid: () => state.ppid, stat: (pid: number) => state.stats[pid] },
  };
}

describe('watchParent', () => {
  it('tells when the parent is gone (we were re-parented)', async () => {
    const { state, tree: t } = tree(100, { 100: { name: 'claude', ppid: 1 } });
    let gone = false;
    const stop = watchParent(() => (gone = true), 5, t);
    state.ppid = 1;
    await waitFor(() => gone, 'the watch to notice');
    stop();
  });

  it('tells when Claude Code, above the sh -c that runs the hook, is gone', async () => {
    const { state, tree: t } = tree(200, { 200: { name: 'sh', ppid: 100 } });
    let gone = false;
    const stop = watchParent(() => (gone = true), 5, t);
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(gone, false, 'nothing changed yet');
    state.stats = { 200: { name: 'sh', ppid: 1 } };
    await waitFor(() => gone, 'the watch to notice');
    stop();
  });
});
