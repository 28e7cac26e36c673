import { type FileHandle, link, open, readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Logger } from 'pino';
import { ErrorCode, RelayError } from '../errors.js';
import { removeIfPresent, syncDir, tempPathBeside, writeNewFileSynced } from '../fs/durable-io.js';
import { errnoCode } from '../fs/errno.js';
import { FileWriteError } from '../fs/file-write-error.js';
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

// Locks held by this process, each with the handle kept open on it for as long as it is held:
// that open file is how another process tells the relay holding this very lock from one that
// merely has its pid (see `lockHolder`). A lock file with our own pid that is not in here was
// left by an earlier process that had the same pid (common in containers, where the relay is
// often pid 1).
const heldHere = new Map<string, FileHandle>();

const MAX_TAKEOVER_ATTEMPTS = 5;

/**
 * Takes `<dir>/relay.lock` for this process. The pid is published with a hard link, so the
 * file never exists without its content, and the file is held open from before it has its
 * name until it is released. A lock whose pid is not a relay holding it (the process is gone,
 * or the pid now belongs to something else) is stale and taken over, with one log line; two
 * relays taking over the same stale lock in the same instant is the one race left open.
 */
export async function acquireStateDirLock(dir: string, log: Logger): Promise<StateDirLock> {
  const path = join(dir, LOCK_FILE_NAME);
  for (let attempt = 1; attempt <= MAX_TAKEOVER_ATTEMPTS; attempt += 1) {
    if (await publishHeld(path, `${process.pid}\n`)) {
      return { release: () => releaseLock(path, log) };
    }
    const owner = await readLockOwner(path);
    if (owner === 'gone') continue;
    let reason = 'it holds no pid';
    if (owner !== 'unreadable') {
      const holder = await lockHolder(path, owner);
      if (holder.holds) throw new StateDirLockedError(dir, owner);
      reason = holder.reason;
    }
    log.warn({ path, stalePid: owner, reason }, 'taking over a stale relay lock');
    await removeIfPresent(path);
  }
  throw new Error(
    `could not take the lock ${path} after ${MAX_TAKEOVER_ATTEMPTS} attempts: other processes ` +
      'keep creating it. Check that only one relay uses this folder.',
  );
}

/**
 * Publishes `content` as `path` unless that name is taken, like `publishFileNoClobber`, with
 * the file held open (in `heldHere`) from before it gets its name: a relay starting at the
 * same moment finds it held by a live process from its first instant. False when taken.
 */
async function publishHeld(path: string, content: string): Promise<boolean> {
  const temp = tempPathBeside(path);
  let handle: FileHandle | undefined;
  try {
    await writeNewFileSynced(temp, content);
    handle = await open(temp, 'r');
    await link(temp, path);
    heldHere.set(path, handle);
  } catch (error) {
    await handle?.close();
    if (errnoCode(error) === 'EEXIST') return false;
    throw new FileWriteError('Publishing', path, error);
  } finally {
    await removeIfPresent(temp).catch(() => undefined);
  }
  await syncDir(dirname(path)).catch((error: unknown) => {
    throw new FileWriteError('Making the new name durable for', path, error);
  });
  return true;
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

/** Whether the lock's pid is a relay holding it, and if not, why the lock is stale. */
export type LockHolder = { holds: true } | { holds: false; reason: string };

/** Where Linux tells what a process has open and how it was started. */
const PROC = '/proc';

/**
 * Whether process `pid`, named in the lock file at `path`, is a relay holding that lock. On
 * Linux a live process holds it when it has the lock file open, as a relay does from taking
 * it to releasing it; a process whose open files may not be read (another user's) holds it
 * when its command line is a relay's (`/proc/<pid>/cmdline`), since which folder it uses
 * cannot be told. Without `/proc` (macOS, BSD) any live process holds it: refusing to start
 * is safe, taking over a live relay's folder is not.
 */
export async function lockHolder(path: string, pid: number): Promise<LockHolder> {
  if (pid === process.pid) {
    return heldHere.has(path)
      ? { holds: true }
      : { holds: false, reason: 'it has our pid, left by an earlier process' };
  }
  if (!processIsAlive(pid)) return { holds: false, reason: 'its process is gone' };
  const proc = `${PROC}/${pid}`;
  const hasProc = await stat(`${PROC}/self/fd`).then(
    () => true,
    () => false,
  );
  if (!hasProc) return { holds: true };
  const command = await commandLineOf(proc);
  const shown = command === undefined ? `pid ${pid}` : `pid ${pid} (${cutCommand(command)})`;
  const open = await hasFileOpen(proc, path);
  if (open === 'gone') return { holds: false, reason: 'its process is gone' };
  if (open === true) return { holds: true };
  if (open === false) {
    return { holds: false, reason: `${shown} is not a relay using this state folder` };
  }
  if (command === undefined || isRelayCommandLine(command)) return { holds: true };
  return { holds: false, reason: `${shown} is not a relay` };
}

/** Whether the process has the file open: true, false, `unknown` (not ours to look at), `gone`. */
async function hasFileOpen(proc: string, path: string): Promise<boolean | 'unknown' | 'gone'> {
  const file = await stat(path).catch(() => undefined);
  let fds: string[];
  try {
    fds = await readdir(`${proc}/fd`);
  } catch (error) {
    return errnoCode(error) === 'ENOENT' ? 'gone' : 'unknown';
  }
  if (!file) return false;
  for (const fd of fds) {
    // each entry stands for the open file itself, whatever its name is now
    const open = await stat(`${proc}/fd/${fd}`).catch(() => undefined);
    if (open && open.dev === file.dev && open.ino === file.ino) return true;
  }
  return false;
}

/** A process's arguments, from `/proc/<pid>/cmdline`; undefined when that cannot be read. */
async function commandLineOf(proc: string): Promise<string[] | undefined> {
  try {
    const text = await readFile(`${proc}/cmdline`, 'utf8');
    const args = text.split('\0');
    if (args.at(-1) === '') args.pop();
    return args.length === 0 ? undefined : args;
  } catch {
    return undefined;
  }
}

/** Enough of a command line for the log to say what the pid is now. */
function cutCommand(args: readonly string[]): string {
  const text = args.join(' ');
  return text.length <= 200 ? text : `${text.slice(0, 199)}…`;
}

/** The relay's program as it is started: its bin, or its entry point, built or not. */
const RELAY_PROGRAM = /(^|[/\\])src[/\\]main\.[cm]?[jt]s$/;

/**
 * Whether a command line starts the relay: one argument is its program (`o7-slack-relay`, or
 * a `src/main.js` or `src/main.ts` entry point) and a later one is the `start` command.
 */
export function isRelayCommandLine(args: readonly string[]): boolean {
  const program = args.findIndex(
    (arg) => basename(arg) === 'o7-slack-relay' || RELAY_PROGRAM.test(arg),
  );
  return program !== -1 && args.slice(program + 1).includes('start');
}

async function releaseLock(path: string, log: Logger): Promise<void> {
  const handle = heldHere.get(path);
  if (!handle) return;
  heldHere.delete(path);
  await handle.close().catch(() => undefined);
  const owner = await readLockOwner(path);
  if (owner !== process.pid) {
    log.warn({ path, owner }, 'relay lock was taken by someone else meanwhile; leaving it');
    return;
  }
  await removeIfPresent(path);
}
