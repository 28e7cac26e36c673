import { rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { removeIfPresent, syncDir, tempPathBeside, writeNewFileSynced } from './durable-io.js';
import { FileWriteError } from './file-write-error.js';

/**
 * Replaces `path` with `content` so a crash leaves either the old or the new file, whole.
 * Writes a hidden temp file beside it, fsyncs, renames over `path`, then fsyncs the folder.
 * Use it for files only we write (the relay's state); answer files use `publishFileNoClobber`.
 * Throws `FileWriteError` (path, hint, `cause`); no temp file is left behind.
 */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const temp = tempPathBeside(path);
  try {
    await writeNewFileSynced(temp, content);
    await rename(temp, path);
  } catch (error) {
    await removeIfPresent(temp).catch(() => undefined);
    throw new FileWriteError('Writing', path, error);
  }
  try {
    await syncDir(dirname(path));
  } catch (error) {
    throw new FileWriteError('Making the new content durable for', path, error);
  }
}
