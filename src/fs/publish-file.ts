import { link } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { removeIfPresent, syncDir, tempPathBeside, writeNewFileSynced } from './durable-io.js';
import { errnoCode } from './errno.js';
import { FileWriteError } from './file-write-error.js';

/** What `publishFileNoClobber` did: we published the file, or someone else already had. */
export type PublishOutcome = 'published' | 'exists';

/**
 * Publishes `content` as `dir/name` only if no file has that name yet; first writer wins.
 *
 * The content goes to a hidden temp file in the same folder and is fsynced, then hard-linked
 * to `name`. `link` fails with EEXIST when the name is taken, atomically, so a second writer
 * (another relay, the o7 TUI) can never be overwritten; `rename` would silently replace the
 * other writer's answers. Readers only ever see no file or the complete file, never a prefix.
 * The temp file is removed on every path, and the folder fsynced so the new name is durable.
 * Throws `FileWriteError` (path, hint, `cause`) for anything other than "already exists".
 */
export async function publishFileNoClobber(
  dir: string,
  name: string,
  content: string,
): Promise<PublishOutcome> {
  assertPlainFileName(name);
  const target = join(dir, name);
  const temp = tempPathBeside(target);
  let outcome: PublishOutcome = 'published';
  try {
    await writeNewFileSynced(temp, content);
    try {
      await link(temp, target);
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw error;
      outcome = 'exists';
    }
  } catch (error) {
    await removeQuietly(temp);
    throw new FileWriteError('Publishing', target, error);
  }
  await removeQuietly(temp);
  if (outcome === 'exists') return outcome;
  try {
    await syncDir(dir);
  } catch (error) {
    throw new FileWriteError('Making the new name durable for', target, error);
  }
  return outcome;
}

/** `name` must be a bare file name: publishing into another folder would bypass the link check. */
function assertPlainFileName(name: string): void {
  if (name === '' || name === '.' || name === '..' || basename(name) !== name) {
    throw new TypeError(`publishFileNoClobber needs a bare file name, got ${JSON.stringify(name)}`);
  }
}

// The temp file holds nothing anyone else needs; failing to remove it must not hide the
// real outcome (the name is already published or the real error is already on its way).
async function removeQuietly(path: string): Promise<void> {
  await removeIfPresent(path).catch(() => undefined);
}
