import { ErrorCode, RelayError } from '../errors.js';
import { errnoCode } from './errno.js';

/** Why a durable write failed, with the path involved; the original error is kept as `cause`. */
export class FileWriteError extends RelayError {
  readonly path: string;

  constructor(action: string, path: string, cause: unknown) {
    super(
      ErrorCode.FileWriteFailed,
      `${action} ${path} failed: ${reasonOf(cause)}. ${hintFor(cause, path)}`,
      { cause },
    );
    this.name = 'FileWriteError';
    this.path = path;
  }
}

function reasonOf(cause: unknown): string {
  const code = errnoCode(cause);
  const message = cause instanceof Error ? cause.message : String(cause);
  return code && !message.startsWith(code) ? `${code}: ${message}` : message;
}

// Turns the errno into the thing an operator should check first.
function hintFor(cause: unknown, path: string): string {
  switch (errnoCode(cause)) {
    case 'EACCES':
    case 'EPERM':
      return `Check that the user running the relay may create and rename files in the folder of ${path}.`;
    case 'EROFS':
      return 'The file system is mounted read-only; remount it writable or use another folder.';
    case 'ENOSPC':
    case 'EDQUOT':
      return 'The disk (or the user quota) is full; free some space and try again.';
    case 'ENOENT':
      return 'The folder does not exist (any more); check that the run folder was not removed.';
    case 'ENOTDIR':
      return 'A part of the path is a file, not a folder; check the configured folder.';
    case 'EISDIR':
      return 'A folder already has that name; move it away.';
    case 'EMLINK':
    case 'ENOTSUP':
    case 'EOPNOTSUPP':
    case 'ENOSYS':
      return 'The file system does not support hard links; put the run folders on a local disk.';
    default:
      return 'Check permissions and free disk space for that folder.';
  }
}
