import { join } from 'node:path';
import type { Logger } from 'pino';
import { ErrorCode, RelayError } from '../errors.js';
import { removeIfPresent } from '../fs/durable-io.js';
import { errnoCode } from '../fs/errno.js';
import { publishFileNoClobber } from '../fs/publish-file.js';
import { readGuardedFile } from '../fs/read-protocol-file.js';

/** Name of the lock file inside the state folder; it holds the owning relay's pid. */
export const LOCK_FILE_NAME = 'relay.lock';

/** Another live relay holds the state folder; two relays would overwrite each other's state. */
export class StateDirLockedError extends RelayError {
  readonly dir: string;
  readonly pid: number;

  constructor(dir: string, pid: number) {
    super(
      ErrorCode.StateLocked,
      `another relay (pid ${pid}) is using ${dir}; stop it or set RELAY_STATE_DIR to another folder. ` +
        `If no relay is running (the pid now belongs to something else), delete ${join(dir, LOCK_FILE_NAME)}.`,
    );
    this.name = 'StateDirLockedError';
    this.dir = dir;
    this.pid = pid;
  }
}

/** A held lock; `release` removes the lock file if it is still ours. */
export interface StateDirLock {
  release(): Promise<void>;
}

// Locks held by this process. A lock file with our own pid that is not in here was left by an
// earlier process that had the same pid (common in containers, where the relay is often pid 1).
const heldHere = new Set<string>();

const MAX_TAKEOVER_ATTEMPTS = 5;

/**
 * Takes `<dir>/relay.lock` for this process. The pid is published with a hard link, so the
 * file never exists without its content. A lock whose pid is dead is stale and taken over;
 * two relays taking over the same stale lock in the same instant is the one race left open.
 */
export async function acquireStateDirLock(dir: string, log: Logger): Promise<StateDirLock> {
  const path = join(dir, LOCK_FILE_NAME);
  for (let attempt = 1; attempt <= MAX_TAKEOVER_ATTEMPTS; attempt += 1) {
    if ((await publishFileNoClobber(dir, LOCK_FILE_NAME, `${process.pid}\n`)) === 'published') {
      heldHere.add(path);
      return { release: () => releaseLock(path, log) };
    }
    const owner = await readLockOwner(path);
    if (owner === 'gone') continue;
    if (owner !== 'unreadable' && isHeldByLiveProcess(path, owner)) {
      throw new StateDirLockedError(dir, owner);
    }
    log.warn({ path, stalePid: owner }, 'taking over a stale relay lock (its process is gone)');
    await removeIfPresent(path);
  }
  throw new Error(
    `could not take the lock ${path} after ${MAX_TAKEOVER_ATTEMPTS} attempts: other processes ` +
      'keep creating it. Check that only one relay uses this folder.',
  );
}

/** A lock file holds a pid and a newline; anything much longer is not one. */
const LOCK_MAX_BYTES = 64;

/**
 * The pid in the lock file. Read like an agent's file (no FIFO, symlink or folder is
 * followed), so something else under the lock's name stops the start with a clear error
 * instead of hanging it or ending in a stack trace.
 */
async function readLockOwner(path: string): Promise<number | 'gone' | 'unreadable'> {
  let found: Awaited<ReturnType<typeof readGuardedFile>>;
  try {
    found = await readGuardedFile(path, { maxBytes: LOCK_MAX_BYTES, oneLinkOnly: false });
  } catch (error) {
    throw new RelayError(
      ErrorCode.StateDirUnusable,
      `could not read the relay lock ${path}: ${String(error)}. Check its permissions.`,
      { cause: error },
    );
  }
  if (found.kind === 'missing') return 'gone';
  if (found.kind === 'refused') {
    throw new RelayError(
      ErrorCode.StateDirUnusable,
      `${path} is in the way of the relay's lock: ${found.reason}. The lock is a small file the relay creates itself; move this one away (or fix its permissions), then start the relay again.`,
    );
  }
  return parseLockPid(found.bytes.toString('utf8')) ?? 'unreadable';
}

/** The pid a lock file holds, if it holds one. */
export function parseLockPid(text: string): number | undefined {
  const pid = Number(text.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/** Whether a process with this pid exists. */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user, so it is alive
    return errnoCode(error) === 'EPERM';
  }
}

function isHeldByLiveProcess(path: string, pid: number): boolean {
  if (pid === process.pid) return heldHere.has(path);
  return processIsAlive(pid);
}

async function releaseLock(path: string, log: Logger): Promise<void> {
  if (!heldHere.delete(path)) return;
  const owner = await readLockOwner(path);
  if (owner !== process.pid) {
    log.warn({ path, owner }, 'relay lock was taken by someone else meanwhile; leaving it');
    return;
  }
  await removeIfPresent(path);
}
