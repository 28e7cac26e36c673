import { randomBytes } from 'node:crypto';
import { open, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errnoCode } from './errno.js';

/**
 * A unique temp path beside `target`. The leading dot and `.tmp` suffix keep it out of
 * every `q-(out|answers)-NNN.json` pattern, so watchers and the o7 TUI ignore it.
 */
export function tempPathBeside(target: string): string {
  const unique = `${process.pid}.${randomBytes(6).toString('hex')}`;
  return join(dirname(target), `.${basename(target)}.${unique}.tmp`);
}

/** True for the temp files `tempPathBeside` makes, so leftovers from a crash can be found. */
export function isDurableTempName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}

const TEMP_NAME = /^\.(.+)\.(\d+)\.[0-9a-f]{12}\.tmp$/;

/**
 * What a temp file `tempPathBeside` made is for: the name it stands in for, and the pid of
 * the process that made it. `undefined` for any other name, so in folders others write to
 * (agents' `qa/`) only our own temp files are ever taken for leftovers.
 */
export function parseDurableTempName(name: string): { target: string; pid: number } | undefined {
  const match = TEMP_NAME.exec(name);
  if (!match) return undefined;
  const pid = Number(match[2]);
  return Number.isSafeInteger(pid) ? { target: match[1] as string, pid } : undefined;
}

/** Creates `path` (never an existing file), writes `content` and fsyncs it before closing. */
export async function writeNewFileSynced(path: string, content: string): Promise<void> {
  const handle = await open(path, 'wx', 0o644);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

// Some platforms and file systems refuse to open or fsync a folder; durability there is
// best effort, which is no worse than what they offer anyone else.
const DIR_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EINVAL', 'ENOTSUP', 'EOPNOTSUPP', 'EPERM']);

/** Fsyncs a folder so a name created, renamed or removed in it survives a power cut. */
export async function syncDir(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    if (!DIR_SYNC_UNSUPPORTED.has(errnoCode(error) ?? '')) throw error;
  } finally {
    await handle?.close();
  }
}

/** Removes a file if it is there; a file already gone is what we wanted anyway. */
export async function removeIfPresent(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
}
