import path from 'node:path';
import type { Logger } from 'pino';
import { fingerprintOf } from '../../core/batch/batch-key.js';
import type { BatchRecord } from '../../core/batch/batch-record.js';
import { claimsEnvelopeSource } from '../../core/envelope/envelope-batch.js';
import { type ProtocolError, refusedFile } from '../../core/protocol/protocol-error.js';
import { parseQuestionFile } from '../../core/protocol/questions/parse-question-file.js';
import type { QuestionBatch } from '../../core/protocol/questions/question.js';
import { qaDirOf, questionPath } from '../../core/protocol/run-folder.js';
import type { Result } from '../../core/result.js';
import { readProtocolFile } from '../../fs/read-protocol-file.js';

/** What reading a run's current question file found. */
export type FileRead =
  | { kind: 'missing' }
  | { kind: 'valid'; batch: QuestionBatch; fingerprint: string }
  | { kind: 'malformed'; error: ProtocolError; fingerprint: string }
  /** unparseable but still changing: probably being written (`lookAgain` has been called) */
  | { kind: 'settling' };

export interface QuestionReaderDeps {
  now: () => Date;
  /** The folder of the run folders the relay itself writes (`ask`'s); its batches are trusted. */
  askRoot?: string;
  log?: Logger;
  /** How long a question file must stay unparseable, unchanged, before it is reported malformed. */
  settleMs: number;
  /** Called when a file is still settling: the run should be read again in `ms`. */
  lookAgain: (runDir: string, ms: number) => void;
}

/** Runs' question files, read through one guarded reader and kept while they are current. */
export interface QuestionReader {
  /** What the run's question file `seq` holds now (see {@link FileRead}). */
  read(runDir: string, seq: number): Promise<FileRead>;
  /** The questions of `record`'s version of its file, or undefined if the file moved on. */
  batchOf(record: BatchRecord): Promise<QuestionBatch | undefined>;
  /** The last valid batch read for the run, if it is batch `seq`. */
  cached(runDir: string, seq: number): QuestionBatch | undefined;
  /** A question file parsed, or why not; undefined when missing or unreadable. No caching. */
  readQuietly(file: string): Promise<Result<QuestionBatch, ProtocolError> | undefined>;
  /** The run folder is gone: drop what is kept for it. */
  forget(runDir: string): void;
}

/**
 * Reads runs' question files. Keeps the last valid batch of each run, so clicks and re-syncs
 * of an unchanged file cost a read and a hash, not a parse; and tells a file still being
 * written in place (unparseable, changing) from a malformed one (unparseable, unchanged for
 * `settleMs`).
 */
export function createQuestionReader(deps: QuestionReaderDeps): QuestionReader {
  const { now, settleMs, lookAgain } = deps;
  const askRoot = deps.askRoot === undefined ? undefined : path.resolve(deps.askRoot);
  const warnedSource = new Set<string>();

  /** The batch as the relay may take it: fields only it may set count only in its own folders. */
  function trusted(file: string, batch: QuestionBatch): QuestionBatch {
    const runDir = path.dirname(path.dirname(file));
    if (askRoot !== undefined && path.dirname(path.resolve(runDir)) === askRoot) {
      return { ...batch, writtenByRelay: true };
    }
    if (claimsEnvelopeSource(batch.source) && !warnedSource.has(file)) {
      warnedSource.add(file);
      deps.log?.warn(
        { file },
        'question file claims "source": "agent-open-questions" outside the relay\'s ask folders; showing it as an ordinary batch',
      );
    }
    return batch;
  }
  const batches = new Map<string, { fingerprint: string; batch: QuestionBatch }>();
  const unsettled = new Map<string, { fingerprint: string; since: number }>();

  async function read(runDir: string, seq: number): Promise<FileRead> {
    const file = questionPath(runDir, seq);
    const found = await readProtocolFile(file);
    if (found.kind === 'missing') return { kind: 'missing' };
    if (found.kind === 'refused') {
      // A FIFO, symlink, folder or huge file in place of a question file: say so, never read it.
      return {
        kind: 'malformed',
        error: refusedFile(file, found.reason),
        fingerprint: `refused:${found.reason}`,
      };
    }
    const fingerprint = fingerprintOf(found.bytes);
    const cached = batches.get(runDir);
    if (cached?.fingerprint === fingerprint && cached.batch.seq === seq) {
      return { kind: 'valid', batch: cached.batch, fingerprint };
    }
    const parsed = parseQuestionFile(found.bytes.toString('utf8'), file);
    if (parsed.ok) {
      unsettled.delete(file);
      const batch = trusted(file, parsed.value);
      batches.set(runDir, { fingerprint, batch });
      return { kind: 'valid', batch, fingerprint };
    }
    const seen = unsettled.get(file);
    const at = now().getTime();
    if (seen?.fingerprint === fingerprint && at - seen.since >= settleMs) {
      return { kind: 'malformed', error: parsed.error, fingerprint };
    }
    if (seen?.fingerprint !== fingerprint) unsettled.set(file, { fingerprint, since: at });
    lookAgain(runDir, settleMs);
    return { kind: 'settling' };
  }

  return {
    read,

    async batchOf(record) {
      const cached = batches.get(record.runDir);
      if (cached?.fingerprint === record.fingerprint) return cached.batch;
      const found = await read(record.runDir, record.seq);
      return found.kind === 'valid' && found.fingerprint === record.fingerprint
        ? found.batch
        : undefined;
    },

    cached(runDir, seq) {
      const cached = batches.get(runDir);
      return cached?.batch.seq === seq ? cached.batch : undefined;
    },

    async readQuietly(file) {
      try {
        const found = await readProtocolFile(file);
        if (found.kind === 'missing') return undefined;
        if (found.kind === 'refused') {
          return { ok: false, error: refusedFile(file, found.reason) } as const;
        }
        const parsed = parseQuestionFile(found.bytes.toString('utf8'), file);
        return parsed.ok ? ({ ok: true, value: trusted(file, parsed.value) } as const) : parsed;
      } catch {
        return undefined;
      }
    },

    forget(runDir) {
      batches.delete(runDir);
      const qa = `${qaDirOf(runDir)}${path.sep}`;
      for (const file of unsettled.keys()) if (file.startsWith(qa)) unsettled.delete(file);
      for (const file of warnedSource) if (file.startsWith(qa)) warnedSource.delete(file);
    },
  };
}

/** A protocol file's text, or undefined when it is missing, refused or unreadable. */
export async function readTextQuietly(file: string): Promise<string | undefined> {
  try {
    const found = await readProtocolFile(file);
    return found.kind === 'ok' ? found.bytes.toString('utf8') : undefined;
  } catch {
    return undefined;
  }
}
