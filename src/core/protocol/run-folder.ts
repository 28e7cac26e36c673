import path from 'node:path';

/**
 * Where a run's question and answer files are: `<run>/qa/q-out-NNN.json` and
 * `<run>/qa/q-answers-NNN.json`. The one place that spells the folder and the names.
 */

/** The folder of a run that holds its question and answer files. */
export const QA_DIR = 'qa';

/** `<run>/qa`. */
export const qaDirOf = (runDir: string): string => path.join(runDir, QA_DIR);

/** Which protocol file a name in `qa/` is, if any. */
export type QaFileName = { kind: 'question' | 'answer'; seq: number };

/**
 * Only the names `questionFileName`/`answerFileName` would write: exactly three digits, or more
 * without a leading zero. `q-out-0001.json` would parse as 1 and then be looked up as
 * `q-out-001.json`, so it is not a protocol file.
 */
const QA_NAME = /^q-(out|answers)-(\d{3}|[1-9]\d{3,})\.json$/;

/**
 * Reads a `qa/` file name. Digits are decimal (`010` is 10, never octal); names that are
 * not canonical protocol files, including our own temp files, give `undefined`.
 */
export function parseQaFileName(name: string): QaFileName | undefined {
  const match = QA_NAME.exec(name);
  if (!match) return undefined;
  const seq = Number.parseInt(match[2] as string, 10);
  if (!Number.isSafeInteger(seq) || seq < 1) return undefined;
  return { kind: match[1] === 'out' ? 'question' : 'answer', seq };
}

const pad = (seq: number): string => String(seq).padStart(3, '0');

/** `q-out-NNN.json` for a batch. */
export const questionFileName = (seq: number): string => `q-out-${pad(seq)}.json`;

/** `q-answers-NNN.json` for a batch. */
export const answerFileName = (seq: number): string => `q-answers-${pad(seq)}.json`;

/** `<run>/qa/q-out-NNN.json`. */
export const questionPath = (runDir: string, seq: number): string =>
  path.join(qaDirOf(runDir), questionFileName(seq));

/** `<run>/qa/q-answers-NNN.json`. */
export const answerPath = (runDir: string, seq: number): string =>
  path.join(qaDirOf(runDir), answerFileName(seq));
