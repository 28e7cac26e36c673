import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, RelayError } from '../errors.js';
import { errnoCode } from '../fs/errno.js';
import { readGuardedFile } from '../fs/read-protocol-file.js';
import { LOCK_FILE_NAME, lockHolder, parseLockPid } from '../store/state-dir-lock.js';

/**
 * The pid of the relay using `stateDir`, read from its lock file, when that process is a relay
 * holding the lock (the relay's own rule, `lockHolder`); `undefined` when there is no lock, it
 * is unreadable, or its pid is gone or now some other process (a crash): nothing is signalled
 * that is not a relay. Throws a `RelayError` saying how to fix it when this user may not read
 * the lock: the relay may well be running, as another user whose group this one is not in.
 */
export async function findRunningRelay(stateDir: string): Promise<number | undefined> {
  const file = path.join(stateDir, LOCK_FILE_NAME);
  // the relay reads its lock this way too: something odd in its place is no relay
  const found = await readGuardedFile(file, { maxBytes: 64, oneLinkOnly: false });
  if (found.kind === 'refused') await assertMayRead(file, stateDir);
  if (found.kind !== 'ok') return undefined;
  const pid = parseLockPid(found.bytes.toString('utf8'));
  if (pid === undefined) return undefined;
  return (await lockHolder(file, pid)).holds ? pid : undefined;
}

async function assertMayRead(lock: string, stateDir: string): Promise<void> {
  const denied = await access(lock, constants.R_OK).then(
    () => undefined,
    (error: unknown) => errnoCode(error),
  );
  if (denied !== 'EACCES' && denied !== 'EPERM') return;
  throw new RelayError(
    ErrorCode.StateDirUnusable,
    `This user (uid ${process.getuid?.() ?? '?'}) may not read ${lock} (${denied}: permission denied), so whether a relay is running cannot be told. Run this as the relay's user, or as a member of the relay's group, the group of ${stateDir} (see docs/service.md).`,
  );
}
