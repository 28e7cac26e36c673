import { constants, type Stats } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { QA_LIMITS } from '../core/protocol/qa-limits.js';
import { errnoCode } from './errno.js';

/** The most a protocol file may hold; real question files are a few KiB. */
export const PROTOCOL_FILE_MAX_BYTES = QA_LIMITS.fileBytes;

/** What a guarded read found: the bytes, no file, or a file the relay will not read. */
export type ProtocolFileRead =
  | { kind: 'ok'; bytes: Buffer }
  | { kind: 'missing' }
  | { kind: 'refused'; reason: string };

/** What a non-regular file is, in words a person knows. */
function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'something else';
}

const tooLarge = (bytes: number, max: number): string =>
  max >= 1024 * 1024
    ? `too large: ${bytes} bytes, at most ${max / 1024 / 1024} MiB`
    : `too large: ${bytes} bytes, at most ${max} bytes`;

const SYMLINK_REASON = 'a symbolic link; the relay reads only regular files';

const hardLinkReason = (links: number): string =>
  `a hard link (${links} names share its content); the relay reads only files with one name, so that no file elsewhere can be shown through it`;

const deniedReason = (code: string): string =>
  `the relay's user may not read it (${code}); grant it read permission on the file and its folders`;

/** How `readGuardedFile` treats a file. */
export interface GuardedReadOptions {
  /** Refused beyond this many bytes, even if the file grows while it is read. */
  maxBytes: number;
  /** Refuse files that have other names (hard links), which may point anywhere. */
  oneLinkOnly: boolean;
}

/**
 * Reads a file without letting it stall or exhaust the relay: a FIFO would block `readFile`
 * forever, a symlink could point anywhere (`/dev/zero`, another user's file), and a huge file
 * would fill memory. Opens with O_NOFOLLOW and O_NONBLOCK, checks with fstat on the open
 * descriptor (no race with a swap between check and read) that it is a regular file within
 * `maxBytes` (and, with `oneLinkOnly`, with one name), and stops reading past that even if it
 * grows meanwhile. A file the relay's user may not read is refused with a reason; other
 * errors (EIO, …) are thrown as they are.
 */
export async function readGuardedFile(
  path: string,
  options: GuardedReadOptions,
): Promise<ProtocolFileRead> {
  const { maxBytes } = options;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    if (code === 'ELOOP') return (await isSymlink(path)) ? refused(SYMLINK_REASON) : missing();
    if (code === 'EACCES' || code === 'EPERM') return refused(deniedReason(code));
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return refused(`not a regular file (${kindOf(stats)})`);
    if (options.oneLinkOnly && stats.nlink > 1) return refused(hardLinkReason(stats.nlink));
    if (stats.size > maxBytes) return refused(tooLarge(stats.size, maxBytes));
    // Sized from fstat plus one byte, so a file that has not grown is read in one call and EOF
    // seen in the next; a buffer per read would leave the allocator far more to hold on to.
    let buffer = Buffer.allocUnsafe(stats.size + 1);
    let total = 0;
    for (;;) {
      if (total === buffer.length) {
        if (total > maxBytes) return refused(tooLarge(total, maxBytes));
        const grown = Buffer.allocUnsafe(Math.min(total * 2, maxBytes + 1));
        buffer.copy(grown, 0, 0, total);
        buffer = grown;
      }
      const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    if (total > maxBytes) return refused(tooLarge(total, maxBytes));
    return { kind: 'ok', bytes: buffer.subarray(0, total) };
  } finally {
    await handle.close();
  }
}

/**
 * Reads a `q-out`/`q-answers` file, which agents and other tools control: a regular file of
 * at most `QA_LIMITS.fileBytes` with one name. The relay, `check` and `preview` all read
 * protocol files through this, so they accept and refuse the same files.
 */
export function readProtocolFile(path: string): Promise<ProtocolFileRead> {
  return readGuardedFile(path, { maxBytes: PROTOCOL_FILE_MAX_BYTES, oneLinkOnly: true });
}

const refused = (reason: string): ProtocolFileRead => ({ kind: 'refused', reason });
const missing = (): ProtocolFileRead => ({ kind: 'missing' });

/** ELOOP means a symlink at the end of the path (O_NOFOLLOW) or a loop in the folders above it. */
async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false; // a loop in the folders above: nothing readable there
  }
}
