import { chmod, chown, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config-schema.js';
import { answerPath, questionPath } from '../core/protocol/run-folder.js';
import type { WatchRoot } from '../core/slack/channel-routes.js';
import { ErrorCode, RelayError } from '../errors.js';
import { syncDir } from '../fs/durable-io.js';
import { errnoCode } from '../fs/errno.js';
import { FileWriteError } from '../fs/file-write-error.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';

/**
 * The folder under the relay's state folder that holds one run folder per `ask`. The relay
 * always watches it as a runs root, so an `ask` batch is shown like any other batch.
 */
const ASKS_FOLDER = 'asks';

/** `<stateDir>/asks`: where `ask` hands batches to the running relay. */
export const asksRoot = (stateDir: string): string => path.join(stateDir, ASKS_FOLDER);

/**
 * Every folder the relay watches, with its channel: `RELAY_WATCH`'s, then the `asks/` folder,
 * whose batches go to the default channel unless `RELAY_WATCH` lists it with another.
 */
export const watchedRoots = (config: Pick<Config, 'watch' | 'stateDir' | 'slack'>): WatchRoot[] => [
  ...config.watch,
  { path: asksRoot(config.stateDir), channel: config.slack.channelId },
];

/** Where an ask folder is put together before it is moved into `asks/`; nobody watches it. */
const STAGING_FOLDER = 'asks-staging';

/**
 * A new ask's folder name: the UTC time to the millisecond, then random hex, so names sort by
 * when they were asked and two asks in the same millisecond still differ.
 */
export function newAskId(now: Date, randomHex: string): string {
  return `${now.toISOString().replace(/[-:.]/g, '')}-${randomHex}`;
}

/** Where one `ask` batch lives: a run folder the relay watches. */
export interface AskFolder {
  dir: string;
  /** Where the folder is built before it is moved to `dir`, on the same file system. */
  stagingDir: string;
  questionFile: string;
  answerFile: string;
}

/** The paths of the ask folder `id` under `stateDir`. */
export function askFolder(stateDir: string, id: string, seq = 1): AskFolder {
  const dir = path.join(asksRoot(stateDir), id);
  return {
    dir,
    stagingDir: path.join(stateDir, STAGING_FOLDER, id),
    questionFile: questionPath(dir, seq),
    answerFile: answerPath(dir, seq),
  };
}

/** The permission bits and group that what `ask` makes gets from `asks/`. */
interface FolderShape {
  mode: number;
  gid: number;
}

/** `asks/`'s permission bits and group; undefined while it does not exist. */
async function shapeOf(dir: string): Promise<FolderShape | undefined> {
  try {
    const info = await stat(dir);
    return { mode: info.mode & 0o7777, gid: info.gid };
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Gives `target` the group of `shape` and its permission bits, less `mask`. */
async function takeShape(target: string, shape: FolderShape, mask = 0): Promise<void> {
  if ((await stat(target)).gid !== shape.gid) await chown(target, -1, shape.gid);
  await chmod(target, shape.mode & ~mask);
}

/** Why the delivery failed, and what to do when it was a permission. */
function deliveryError(folder: AskFolder, error: unknown): unknown {
  const cause = error instanceof FileWriteError ? error.cause : error;
  const code = errnoCode(cause);
  if (code !== 'EACCES' && code !== 'EPERM') return error;
  return new RelayError(
    ErrorCode.FileWriteFailed,
    `ask could not hand its batch to the relay in ${path.dirname(folder.dir)}: ${String((cause as Error).message)}. Run ask as the relay's user, or as a member of the relay's group, whose members may write in its asks folders (see docs/service.md).`,
    { cause: error },
  );
}

/** A batch written for the relay by someone else (`ask`, a hook): `q-out-NNN.json`'s content. */
export interface BatchFile {
  seq: number;
  questions: readonly object[];
}

/** The exact text a delivered batch file holds. */
export const batchText = (batch: BatchFile): string => `${JSON.stringify(batch, null, 2)}\n`;

/**
 * Delivers ask's batch to the relay: writes it as `<folder>/qa/q-out-NNN.json` and returns the
 * file's exact text. The whole folder is built beside `asks/` and renamed into it in one step:
 * the relay's watcher then finds a complete folder to scan and watch, while files appearing one
 * by one in a new folder can slip past it before it watches that folder. The folder and the
 * file get the group and permissions of `asks/` (the file without execute bits), whatever this
 * process's umask: when the relay runs as another user (a service), it must write the answer
 * there. `besides` are more files for the folder itself (name → text), there from the start.
 */
export async function deliverBatch(
  folder: AskFolder,
  batch: BatchFile,
  besides: Readonly<Record<string, string>> = {},
): Promise<string> {
  const text = batchText(batch);
  const staged = path.join(folder.stagingDir, path.relative(folder.dir, folder.questionFile));
  const asks = path.dirname(folder.dir);
  try {
    const shape = await shapeOf(asks);
    await mkdir(path.dirname(staged), { recursive: true });
    try {
      if (shape) {
        await takeShape(folder.stagingDir, shape);
        await takeShape(path.dirname(staged), shape);
      }
      await writeFileAtomic(staged, text);
      if (shape) await takeShape(staged, shape, 0o7111);
      for (const [name, content] of Object.entries(besides))
        await writeFileAtomic(path.join(folder.stagingDir, name), content);
      await mkdir(asks, { recursive: true });
      await rename(folder.stagingDir, folder.dir);
    } catch (error) {
      await rm(folder.stagingDir, { recursive: true, force: true });
      throw error;
    }
  } catch (error) {
    throw deliveryError(folder, error);
  }
  await syncDir(asks);
  return text;
}
