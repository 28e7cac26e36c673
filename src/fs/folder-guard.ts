import { lstat, readlink } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, RelayError } from '../errors.js';

/** A folder the relay will not read questions from nor write answers to, and why. */
export interface FolderRefusal {
  /** the link (or the folder) in the way */
  folder: string;
  reason: string;
}

/** A write the folder guard stopped: nothing was written. */
export class FolderRefusedError extends RelayError {
  readonly folder: string;

  constructor(file: string, refusal: FolderRefusal) {
    super(
      ErrorCode.FileWriteFailed,
      `Not writing ${file}: ${refusal.folder} ${refusal.reason}. ${FOLDER_FIX}.`,
    );
    this.name = 'FolderRefusedError';
    this.folder = refusal.folder;
  }
}

/** What to do about a refused folder, in one sentence. */
export const FOLDER_FIX =
  'Make it a real folder inside the watched folder, or watch the folder it points to instead';

const isWithin = (inner: string, outer: string): boolean =>
  inner === outer || inner.startsWith(`${outer}${path.sep}`);

/**
 * The one rule for the folders under the watched roots that the relay reads questions from and
 * writes answers in (a run folder, its `qa/`): each must be where it appears, a real folder
 * below a watched root, reached through no symbolic link below that root. That is: its real
 * path is the root's real path joined with the path from the root, so nothing read or written
 * there lies outside the roots (`qa -> /tmp/elsewhere`, `run -> ..`, a `..` in a stored run
 * folder's path). The roots themselves are trusted, links and all: they are configured.
 */
export function createFolderGuard(roots: readonly string[]) {
  const resolved = roots.map((root) => path.resolve(root));

  /** Why `folder` may not be used, or undefined when it may (or is not there: nothing to use). */
  async function refusal(folder: string): Promise<FolderRefusal | undefined> {
    const target = path.resolve(folder);
    // the deepest root that holds it: a root inside another is a root of its own
    const root = resolved.filter((r) => isWithin(target, r)).sort((a, b) => b.length - a.length)[0];
    if (root === undefined) {
      return { folder: target, reason: 'is not inside any watched folder (RELAY_WATCH)' };
    }
    let at = root;
    for (const part of path.relative(root, target).split(path.sep)) {
      if (part === '') continue;
      at = path.join(at, part);
      const stats = await lstat(at).catch(() => undefined);
      // missing or unreadable: a read or write there fails by itself, and says so
      if (stats === undefined) return undefined;
      if (stats.isSymbolicLink()) {
        const to = await readlink(at).catch(() => undefined);
        const where = to === undefined ? '' : ` to ${to}`;
        return {
          folder: at,
          reason: `is a symbolic link${where}; the relay follows no link below a watched folder`,
        };
      }
      if (!stats.isDirectory()) return undefined;
    }
    return undefined;
  }

  return {
    refusal,
    /** Throws a {@link FolderRefusedError} naming `file` when its folder may not be written. */
    async assertWritable(file: string): Promise<void> {
      const refused = await refusal(path.dirname(file));
      if (refused) throw new FolderRefusedError(file, refused);
    },
  };
}

export type FolderGuard = ReturnType<typeof createFolderGuard>;
