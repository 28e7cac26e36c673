import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from '../fs/file-write-error.js';
import { LOCK_FILE_NAME, parseLockPid, processIsAlive } from '../store/state-dir-lock.js';

/**
 * The pid of the relay using `stateDir`, read from its lock file, when that process is alive;
 * `undefined` when there is no lock, it is unreadable, or its process is gone (a crash).
 */
export async function findRunningRelay(stateDir: string): Promise<number | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(stateDir, LOCK_FILE_NAME), 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return undefined;
    throw error;
  }
  const pid = parseLockPid(text);
  return pid !== undefined && processIsAlive(pid) ? pid : undefined;
}
