import path from 'node:path';
import { readGuardedFile } from '../fs/read-protocol-file.js';
import { LOCK_FILE_NAME, parseLockPid, processIsAlive } from '../store/state-dir-lock.js';

/**
 * The pid of the relay using `stateDir`, read from its lock file, when that process is alive;
 * `undefined` when there is no lock, it is unreadable, or its process is gone (a crash).
 */
export async function findRunningRelay(stateDir: string): Promise<number | undefined> {
  // the relay reads its lock this way too: something odd in its place is no relay
  const found = await readGuardedFile(path.join(stateDir, LOCK_FILE_NAME), {
    maxBytes: 64,
    oneLinkOnly: false,
  });
  if (found.kind !== 'ok') return undefined;
  const pid = parseLockPid(found.bytes.toString('utf8'));
  return pid !== undefined && processIsAlive(pid) ? pid : undefined;
}
