import { constants, type Stats } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { QA_LIMITS } from '../core/protocol/qa-limits.js';
import { errnoCode } from './file-write-error.js';

/** The most a protocol file may hold; real question files are a few KiB. */
export const PROTOCOL_FILE_MAX_BYTES = QA_LIMITS.fileBytes;

/** What `readProtocolFile` found: the bytes, no file, or a file the relay will not read. */
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

const tooLarge = (bytes: number): string =>
  `too large: ${bytes} bytes, at most ${PROTOCOL_FILE_MAX_BYTES / 1024 / 1024} MiB`;

const SYMLINK_REASON = 'a symbolic link; the relay reads only regular files';

/**
 * Reads a file an agent controls without letting it stall or exhaust the relay: a FIFO would
 * block `readFile` forever, a symlink could point anywhere (`/dev/zero`, another user's file),
 * and a huge file would fill memory. Opens with O_NOFOLLOW and O_NONBLOCK, checks with fstat
 * on the open descriptor (no race with a swap between check and read) that it is a regular
 * file of at most 4 MiB, and stops reading past that even if it grows meanwhile.
 * Other errors (EACCES, EIO, …) are thrown as they are.
 */
export async function readProtocolFile(path: string): Promise<ProtocolFileRead> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    if (code === 'ELOOP') return (await isSymlink(path)) ? refused(SYMLINK_REASON) : missing();
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return refused(`not a regular file (${kindOf(stats)})`);
    if (stats.size > PROTOCOL_FILE_MAX_BYTES) return refused(tooLarge(stats.size));
    // Sized from fstat plus one byte, so a file that has not grown is read in one call and EOF
    // seen in the next; a buffer per read would leave the allocator far more to hold on to.
    let buffer = Buffer.allocUnsafe(stats.size + 1);
    let total = 0;
    for (;;) {
      if (total === buffer.length) {
        if (total > PROTOCOL_FILE_MAX_BYTES) return refused(tooLarge(total));
        const grown = Buffer.allocUnsafe(Math.min(total * 2, PROTOCOL_FILE_MAX_BYTES + 1));
        buffer.copy(grown, 0, 0, total);
        buffer = grown;
      }
      const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    if (total > PROTOCOL_FILE_MAX_BYTES) return refused(tooLarge(total));
    return { kind: 'ok', bytes: buffer.subarray(0, total) };
  } finally {
    await handle.close();
  }
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
