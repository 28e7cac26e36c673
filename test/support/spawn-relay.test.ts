import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spawnRelay } from './spawn-relay.js';
import { makeTempDir } from './temp-dir.js';

test('a child that ends without reading its input: its exit code and stderr, not an EPIPE', async () => {
  const { dir, cleanup } = await makeTempDir('o7-spawn-relay-');
  try {
    // more than a pipe holds, so the write is still going when the child has gone
    const child = spawnRelay(['no-such-command'], {
      env: {},
      cwd: dir,
      stdin: 'x'.repeat(1 << 20),
    });
    assert.deepEqual(await child.exited, { code: 2, signal: null });
    assert.match(child.stderr(), /unknown command: no-such-command/);
  } finally {
    await cleanup();
  }
});
