import path from 'node:path';
import { readGuardedFile } from '../fs/read-protocol-file.js';
import { LOCK_FILE_NAME, lockHolder, parseLockPid } from '../store/state-dir-lock.js';

/**
 * The pid of the relay using `stateDir`, read from its lock file, when that process is a relay
 * holding the lock (the relay's own rule, `lockHolder`); `undefined` when there is no lock, it
 * is unreadable, or its pid is gone or now some other process (a crash): nothing is signalled
 * that is not a relay.
 */
export async function findRunningRelay(stateDir: string): Promise<number | undefined> {
  const file = path.join(stateDir, LOCK_FILE_NAME);
  // the relay reads its lock this way too: something odd in its place is no relay
  const found = await readGuardedFile(file, { maxBytes: 64, oneLinkOnly: false });
  if (found.kind !== 'ok') return undefined;
  const pid = parseLockPid(found.bytes.toString('utf8'));
  if (pid === undefined) return undefined;
  return (await lockHolder(file, pid)).holds ? pid : undefined;
}
