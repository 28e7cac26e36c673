import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { EnvelopeBatchFile } from '../core/envelope/envelope-to-batch.js';
import { answerFileName, questionFileName } from '../core/protocol/qa-file-names.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';

/**
 * The folder under the relay's state folder that holds one run folder per `ask`. The relay
 * always watches it as a runs root, so an `ask` batch is shown like any other batch.
 */
export const ASKS_FOLDER = 'asks';

/** `<stateDir>/asks`: where `ask` hands batches to the running relay. */
export const asksRoot = (stateDir: string): string => path.join(stateDir, ASKS_FOLDER);

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
  questionFile: string;
  answerFile: string;
}

/** The paths of the ask folder `id` under `stateDir`. */
export function askFolder(stateDir: string, id: string, seq = 1): AskFolder {
  const dir = path.join(asksRoot(stateDir), id);
  return {
    dir,
    questionFile: path.join(dir, 'qa', questionFileName(seq)),
    answerFile: path.join(dir, 'qa', answerFileName(seq)),
  };
}

/**
 * Writes the batch as `<folder>/qa/q-out-NNN.json` (a temp file renamed into place, so the
 * relay never reads half of it) and returns the file's exact text.
 */
export async function handOffBatch(folder: AskFolder, batch: EnvelopeBatchFile): Promise<string> {
  const text = `${JSON.stringify(batch, null, 2)}\n`;
  await mkdir(path.dirname(folder.questionFile), { recursive: true });
  await writeFileAtomic(folder.questionFile, text);
  return text;
}
