import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { ErrorCode } from '../../src/errors.js';
import { openFileStateStore, StateDirLockedError } from '../../src/store/file-state-store.js';
import { LOCK_FILE_NAME } from '../../src/store/state-dir-lock.js';
import { tempRootForFile } from '../support/temp-root.js';

const log = pino({ level: 'silent' });

const freshDir = tempRootForFile('state-dir-lock-');
const lockOf = (dir: string) => join(dir, LOCK_FILE_NAME);

/** Runs a child node process that does `code`; resolves once it has a pid. */
function startNode(code: string) {
  const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  assert.ok(child.pid, 'the child process started');
  return { child, pid: child.pid, exited };
}

describe('state folder lock', () => {
  it('writes our pid to relay.lock and removes it on close', async () => {
    const dir = await freshDir();
    const store = await openFileStateStore(dir, { log });
    assert.equal(await readFile(lockOf(dir), 'utf8'), `${process.pid}\n`);
    await store.close();
    assert.deepEqual(await readdir(dir), ['runs']);
  });

  it('refuses a folder whose lock belongs to a live process', async () => {
    const dir = await freshDir();
    const sleeper = startNode('setTimeout(() => {}, 120_000)');
    try {
      await writeFile(lockOf(dir), `${sleeper.pid}\n`);
      await assert.rejects(openFileStateStore(dir, { log }), (error: unknown) => {
        assert.ok(error instanceof StateDirLockedError);
        assert.equal(error.code, ErrorCode.StateLocked);
        assert.equal(error.pid, sleeper.pid);
        assert.equal(error.dir, dir);
        assert.match(
          error.message,
          new RegExp(
            `another relay \\(pid ${sleeper.pid}\\) is using ${dir}; stop it or set RELAY_STATE_DIR`,
          ),
        );
        return true;
      });
      assert.equal(await readFile(lockOf(dir), 'utf8'), `${sleeper.pid}\n`, 'lock left alone');
    } finally {
      sleeper.child.kill();
      await sleeper.exited;
    }
  });

  it('takes over a lock whose process has exited', async () => {
    const dir = await freshDir();
    const gone = startNode('');
    await gone.exited;
    await writeFile(lockOf(dir), `${gone.pid}\n`);
    const store = await openFileStateStore(dir, { log });
    try {
      assert.equal(await readFile(lockOf(dir), 'utf8'), `${process.pid}\n`);
    } finally {
      await store.close();
    }
  });

  it('takes over a lock with our own pid left by an earlier process (pid reuse)', async () => {
    const dir = await freshDir();
    await writeFile(lockOf(dir), `${process.pid}\n`);
    const store = await openFileStateStore(dir, { log });
    assert.equal(await readFile(lockOf(dir), 'utf8'), `${process.pid}\n`);
    await store.close();
    assert.deepEqual(await readdir(dir), ['runs'], 'our lock, released on close');
  });

  it('takes over a lock file that holds no pid', async () => {
    const dir = await freshDir();
    await writeFile(lockOf(dir), 'garbage');
    const store = await openFileStateStore(dir, { log });
    assert.equal(await readFile(lockOf(dir), 'utf8'), `${process.pid}\n`);
    await store.close();
  });

  it('refuses a second store on the same folder in the same process until the first closes', async () => {
    const dir = await freshDir();
    const first = await openFileStateStore(dir, { log });
    await assert.rejects(openFileStateStore(dir, { log }), StateDirLockedError);
    await first.close();
    const second = await openFileStateStore(dir, { log });
    await second.close();
  });
});
