import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config-schema.js';
import type { EnvelopeBatchFile } from '../core/envelope/envelope-to-batch.js';
import { answerPath, questionPath } from '../core/protocol/run-folder.js';
import type { WatchRoot } from '../core/slack/channel-routes.js';
import { syncDir } from '../fs/durable-io.js';
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

/**
 * Writes the batch as `<folder>/qa/q-out-NNN.json` and returns the file's exact text. The
 * whole folder is built beside `asks/` and renamed into it in one step: the relay's watcher
 * then finds a complete folder to scan and watch, while files appearing one by one in a new
 * folder can slip past it before it watches that folder.
 */
export async function handOffBatch(folder: AskFolder, batch: EnvelopeBatchFile): Promise<string> {
  const text = `${JSON.stringify(batch, null, 2)}\n`;
  const staged = path.join(folder.stagingDir, path.relative(folder.dir, folder.questionFile));
  await mkdir(path.dirname(staged), { recursive: true });
  try {
    await writeFileAtomic(staged, text);
    await mkdir(path.dirname(folder.dir), { recursive: true });
    await rename(folder.stagingDir, folder.dir);
  } catch (error) {
    await rm(folder.stagingDir, { recursive: true, force: true });
    throw error;
  }
  await syncDir(path.dirname(folder.dir));
  return text;
}
