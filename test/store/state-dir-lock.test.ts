import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { ErrorCode } from '../../src/errors.js';
import { openFileStateStore, StateDirLockedError } from '../../src/store/file-state-store.js';
import { isRelayCommandLine, LOCK_FILE_NAME } from '../../src/store/state-dir-lock.js';
import type { StateStore } from '../../src/store/state-store.js';
import { captureLog } from '../support/log-capture.js';
import { linux, needs } from '../support/preconditions.js';
import { NODE_LOADER_ARGS, projectModule, REPO } from '../support/project-paths.js';
import { tempRootForFile } from '../support/temp-root.js';

/** The options of a test that reads other processes' command lines: only Linux shows them (/proc). */
const READS_PROC = needs(linux('reads command lines from /proc'));

const log = pino({ level: 'silent' });

const freshDir = tempRootForFile('state-dir-lock-');
const lockOf = (dir: string) => join(dir, LOCK_FILE_NAME);

/**
 * A relay's hold on `dir` in another process: a child that takes the lock with the relay's own
 * code and keeps it until stopped.
 */
async function holdLockInChild(dir: string) {
  const lockModule = pathToFileURL(projectModule('src/store/state-dir-lock')).href;
  const child = spawn(
    process.execPath,
    [
      ...NODE_LOADER_ARGS,
      '--input-type=module',
      '-e',
      `const { acquireStateDirLock } = await import(${JSON.stringify(lockModule)});
       const { pino } = await import('pino');
       await acquireStateDirLock(${JSON.stringify(dir)}, pino({ level: 'silent' }));
       process.stdout.write('held\\n');
       setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], cwd: REPO },
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('held')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the lock holder exited (${code})`)));
  });
  assert.ok(child.pid, 'the holder started');
  return {
    pid: child.pid,
    stop: async () => {
      child.kill();
      await exited;
    },
  };
}

/** Runs a child node process that does `code`; resolves once it has a pid. */
function startNode(code: string) {
  const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  assert.ok(child.pid, 'the child process started');
  return { child, pid: child.pid, exited };
}

/** Opens a store on `dir` and checks that the lock names this process now (closed if it does not). */
async function openOwningLock(dir: string, logger = log): Promise<StateStore> {
  const store = await openFileStateStore(dir, { log: logger });
  try {
    assert.equal(await readFile(lockOf(dir), 'utf8'), `${process.pid}\n`, 'the lock is ours');
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/**
 * Opens a store on `dir` over a lock naming `pid`, which must be taken over with exactly one
 * log line about the lock; the store is closed again. Returns the reason that line gives.
 */
async function takenOver(dir: string, pid: number): Promise<string> {
  await writeFile(lockOf(dir), `${pid}\n`);
  const { log: watched, records } = captureLog('info');
  const store = await openOwningLock(dir, watched);
  await store.close();
  const lines = records.filter((r) => String(r.msg).includes('lock'));
  assert.equal(lines.length, 1, JSON.stringify(lines));
  assert.equal(lines[0]?.msg, 'taking over a stale relay lock');
  assert.equal(lines[0]?.stalePid, pid);
  return String(lines[0]?.reason);
}

describe('state folder lock', () => {
  it('writes our pid to relay.lock and removes it on close', async () => {
    const dir = await freshDir();
    const store = await openOwningLock(dir);
    await store.close();
    assert.deepEqual(await readdir(dir), ['runs']);
  });

  it('refuses a folder whose lock a live relay holds', async () => {
    const dir = await freshDir();
    const relay = await holdLockInChild(dir);
    try {
      await assert.rejects(openFileStateStore(dir, { log }), (error: unknown) => {
        assert.ok(error instanceof StateDirLockedError);
        assert.equal(error.code, ErrorCode.StateLocked);
        assert.equal(error.pid, relay.pid);
        assert.equal(error.dir, dir);
        assert.match(
          error.message,
          new RegExp(
            `another relay \\(pid ${relay.pid}\\) is using ${dir}; stop it or set RELAY_STATE_DIR`,
          ),
        );
        return true;
      });
      assert.equal(await readFile(lockOf(dir), 'utf8'), `${relay.pid}\n`, 'lock left alone');
    } finally {
      await relay.stop();
    }
  });

  it('takes over, with one log line, a lock naming pid 1: alive, but no relay', {
    ...READS_PROC,
  }, async () => {
    assert.match(await takenOver(await freshDir(), 1), /^pid 1 (\(.+\) )?is not a relay/);
  });

  it('takes over a lock naming a live process that is not a relay', {
    ...READS_PROC,
  }, async () => {
    const sleeper = startNode('setTimeout(() => {}, 120_000)');
    try {
      assert.equal(
        await takenOver(await freshDir(), sleeper.pid),
        `pid ${sleeper.pid} (${process.execPath} -e setTimeout(() => {}, 120_000)) is not a relay using this state folder`,
      );
    } finally {
      sleeper.child.kill();
      await sleeper.exited;
    }
  });

  it('takes over a lock copied from a folder that a live relay holds', {
    ...READS_PROC,
  }, async () => {
    const held = await freshDir();
    const relay = await holdLockInChild(held);
    try {
      await takenOver(await freshDir(), relay.pid);
      assert.equal(await readFile(lockOf(held), 'utf8'), `${relay.pid}\n`, 'the other left alone');
    } finally {
      await relay.stop();
    }
  });

  it('takes over a lock whose process has exited', async () => {
    const gone = startNode('');
    await gone.exited;
    await takenOver(await freshDir(), gone.pid);
  });

  it('takes over a lock with our own pid left by an earlier process (pid reuse)', async () => {
    const dir = await freshDir();
    await writeFile(lockOf(dir), `${process.pid}\n`);
    const store = await openOwningLock(dir);
    await store.close();
    assert.deepEqual(await readdir(dir), ['runs'], 'our lock, released on close');
  });

  it('takes over a lock file that holds no pid', async () => {
    const dir = await freshDir();
    await writeFile(lockOf(dir), 'garbage');
    const store = await openOwningLock(dir);
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

describe('isRelayCommandLine', () => {
  const table: [string[], boolean][] = [
    [['node', '/opt/relay/dist/src/main.js', 'start'], true],
    [['/usr/bin/node', '--no-memory-reducer', 'dist/src/main.js', 'start'], true],
    [['node', '--import', 'tsx', '/home/me/o7-slack-relay/src/main.ts', 'start'], true],
    [['node', '/usr/local/bin/o7-slack-relay', 'start'], true],
    [['node', '/usr/local/bin/o7-slack-relay', 'doctor'], false],
    [['node', 'dist/src/main.js', 'ask', '--json'], false],
    [['node', '-e', 'setTimeout(() => {}, 1000)'], false],
    [['/process_api', '--firecracker-init', 'start'], false],
    [['/sbin/init'], false],
    [['start', 'node', 'dist/src/main.js'], false],
  ];
  for (const [args, relay] of table) {
    it(`${args.join(' ')}: ${relay ? 'a relay' : 'no relay'}`, () => {
      assert.equal(isRelayCommandLine(args), relay);
    });
  }
});
