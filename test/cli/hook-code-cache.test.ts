// `hook` from the o7-slack-relay command runs its bundle compiled with V8's code cache, kept in
// ~/.cache/o7-slack-relay. Shown by the cache file: written by the first call, left alone by
// a call V8 took it for (a rejected cache is written again at exit), and a cache that is
// damaged, made for another bundle or cannot be written never changes what the hook does.
import assert from 'node:assert/strict';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { permissionRequest } from '../core/claude-code/samples.js';
import { COMMAND, repoFile } from '../support/project-paths.js';
import { spawnRelay } from '../support/spawn-relay.js';
import { makeTempDir } from '../support/temp-dir.js';

/** A permission prompt as Claude Code writes it. */
const CALL = JSON.stringify(permissionRequest);

/** `o7-slack-relay hook` with `env` (a HOME): it found no relay, as it should, and said so. */
async function hookCall(env: Record<string, string>, cwd: string) {
  const proc = spawnRelay(['hook'], {
    env: { RELAY_STATE_DIR: path.join(cwd, 'state'), ...env },
    cwd,
    stdin: CALL,
    program: COMMAND,
  });
  const { code } = await proc.exited;
  assert.deepEqual(
    { code, out: proc.stdout(), said: /no relay is running/.test(proc.stderr()) },
    { code: 0, out: '', said: true },
    proc.stderr(),
  );
}

async function home(t: TestContext) {
  const { dir, cleanup } = await makeTempDir('o7-hook-cache-');
  t.after(cleanup);
  return dir;
}

/** The one cache file in `folder`: its path, bytes and modification time. */
async function cacheIn(folder: string) {
  const names = await readdir(folder);
  assert.equal(names.length, 1, names.join(' '));
  const [name = ''] = names;
  assert.match(name, /^hook-[0-9a-f]{8}\.v8$/);
  const file = path.join(folder, name);
  const info = await stat(file);
  return { file, bytes: await readFile(file), mtimeMs: info.mtimeMs, mode: info.mode & 0o777 };
}

describe("hook's code cache", () => {
  test('the first call writes it (private to the user, naming node and the bundle), the next one uses it as it is', async (t) => {
    const dir = await home(t);
    await hookCall({ HOME: dir }, dir);
    const folder = path.join(dir, '.cache', 'o7-slack-relay');
    assert.equal((await stat(folder)).mode & 0o777, 0o700);
    const first = await cacheIn(folder);
    assert.equal(first.mode, 0o600);
    const { size } = await stat(repoFile('dist/hook/hook.cjs'));
    const key = first.bytes.subarray(0, first.bytes.indexOf(10)).toString('latin1');
    assert.match(key, new RegExp(`^${process.version} ${process.arch} ${size} [\\d.]+$`));
    assert.ok(first.bytes.length > key.length + 1000, 'V8 code follows the line');

    await hookCall({ HOME: dir }, dir);
    const second = await cacheIn(folder);
    assert.deepEqual(
      { same: second.bytes.equals(first.bytes), mtimeMs: second.mtimeMs },
      { same: true, mtimeMs: first.mtimeMs },
      'V8 took the cache, so it was not written again',
    );
  });

  test('a damaged cache, or one made for another bundle, is compiled past and written again', async (t) => {
    const dir = await home(t);
    const folder = path.join(dir, 'xdg', 'o7-slack-relay');
    const env = { HOME: path.join(dir, 'unused'), XDG_CACHE_HOME: path.join(dir, 'xdg') };
    await hookCall(env, dir);
    const good = await cacheIn(folder);
    const keyEnd = good.bytes.indexOf(10) + 1;

    const damaged = Buffer.concat([good.bytes.subarray(0, keyEnd), Buffer.alloc(5000, 0x5a)]);
    await writeFile(good.file, damaged);
    await hookCall(env, dir);
    const rewritten = await cacheIn(folder);
    assert.ok(
      !rewritten.bytes.equals(damaged),
      'V8 turned the damaged cache down; a new one was written',
    );
    assert.ok(rewritten.bytes.length > keyEnd + 1000);

    const otherBundle = good.bytes.toString('latin1').replace(/^(\S+ \S+ )\d+/, '$1123');
    await writeFile(good.file, Buffer.from(otherBundle, 'latin1'));
    await hookCall(env, dir);
    const renewed = await cacheIn(folder);
    assert.equal(
      renewed.bytes.subarray(0, keyEnd).toString('latin1'),
      good.bytes.subarray(0, keyEnd).toString('latin1'),
      "written again for this bundle: another bundle's cache is never given to V8",
    );
  });

  test('a cache that cannot be written leaves the hook as it is', async (t) => {
    const dir = await home(t);
    await writeFile(path.join(dir, '.cache'), 'a file where the cache folder would go');
    await hookCall({ HOME: dir }, dir);
    await hookCall({ HOME: dir }, dir);
    assert.equal(
      await readFile(path.join(dir, '.cache'), 'utf8'),
      'a file where the cache folder would go',
    );
  });
});
