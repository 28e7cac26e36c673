import path from 'node:path';
import type { Logger } from 'pino';
import { fingerprintOf } from '../core/batch/batch-key.js';
import { parseAnswerFile } from '../core/protocol/answers/parse-answer-file.js';
import {
  formatProtocolError,
  type ProtocolError,
  refusedFile,
} from '../core/protocol/protocol-error.js';
import { answerPath, qaDirOf } from '../core/protocol/run-folder.js';
import { type ProtocolFileRead, readProtocolFile } from '../fs/read-protocol-file.js';
import type { RecordChange, StateStore } from '../store/state-store.js';

/** The answer files of other providers, read until they are whole. */
export interface ElsewhereAnswers {
  /** Looks at the run's batches answered elsewhere whose answers were not read whole yet. */
  settle(runDir: string): Promise<void>;
  /** The run is gone. */
  forget(runDir: string): void;
}

export interface ElsewhereAnswersDeps {
  store: Pick<StateStore, 'forRun'>;
  /** Changes a stored record, stamped with the time (see `stampedChange`). */
  change: RecordChange;
  log: Logger;
  now: () => Date;
  /** How long an unreadable answer file must stay unchanged before it is given up on. */
  settleMs: number;
  /** The run should be synced again in `ms`. */
  lookAgain: (runDir: string, ms: number) => void;
  /** Tells people (in the run's channel) about an answer file that is given up on. */
  post?: (text: string, about: string) => Promise<void>;
}

/** What reading another provider's answer file found. */
type AnswerRead =
  | { kind: 'whole' }
  | { kind: 'missing' }
  | { kind: 'not-yet'; fingerprint: string; error: ProtocolError };

async function readAnswers(file: string): Promise<AnswerRead> {
  let found: ProtocolFileRead;
  try {
    found = await readProtocolFile(file);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { kind: 'not-yet', fingerprint: `error:${reason}`, error: refusedFile(file, reason) };
  }
  if (found.kind === 'missing') return { kind: 'missing' };
  if (found.kind === 'refused') {
    const error = refusedFile(file, found.reason);
    return { kind: 'not-yet', fingerprint: `refused:${found.reason}`, error };
  }
  const parsed = parseAnswerFile(found.bytes.toString('utf8'), file);
  if (parsed.ok) return { kind: 'whole' };
  return { kind: 'not-yet', fingerprint: fingerprintOf(found.bytes), error: parsed.error };
}

/**
 * Waits for the answer files of other providers to be whole before their answers are shown.
 * A provider that writes its file in place (not renamed into place) is seen half-written; it
 * is read again, like a question file being written, until it parses (then shown) or stops
 * changing for `settleMs` without parsing (then given up on, with a warning that says why).
 */
export function createElsewhereAnswers(deps: ElsewhereAnswersDeps): ElsewhereAnswers {
  const { store, change, log, now, settleMs } = deps;
  const unsettled = new Map<string, { fingerprint: string; since: number }>();

  return {
    forget(runDir) {
      const qa = `${qaDirOf(runDir)}${path.sep}`;
      for (const file of unsettled.keys()) if (file.startsWith(qa)) unsettled.delete(file);
    },

    async settle(runDir) {
      for (const record of store.forRun(runDir)) {
        if (record.status !== 'answered-elsewhere' || !record.answersPending) continue;
        const file = answerPath(runDir, record.seq);
        const read = await readAnswers(file);
        const settle = () =>
          change(record.key, (r) => {
            const { answersPending: _, ...settled } = r;
            return settled;
          });
        if (read.kind !== 'not-yet') {
          unsettled.delete(file);
          await settle();
          continue;
        }
        const seen = unsettled.get(file);
        const at = now().getTime();
        if (seen?.fingerprint === read.fingerprint && at - seen.since >= settleMs) {
          unsettled.delete(file);
          log.warn(
            { runDir, seq: record.seq, file, error: read.error },
            "another provider's answer file does not follow the protocol; its answers are not shown",
          );
          await settle();
          const text = `Run ${path.basename(runDir)}, batch ${record.seq} was answered in another tool, but its answer file does not follow the Q&A protocol, so its answers are not shown (the agent may not be able to read them either).\n${formatProtocolError(read.error)}`;
          await deps
            .post?.(text, runDir)
            .catch((err: unknown) =>
              log.warn({ err, runDir, seq: record.seq }, 'could not post the notice to Slack'),
            );
          continue;
        }
        if (seen?.fingerprint !== read.fingerprint) {
          unsettled.set(file, { fingerprint: read.fingerprint, since: at });
          log.debug(
            { runDir, seq: record.seq, file },
            "another provider's answer file is not whole yet; reading it again",
          );
        }
        deps.lookAgain(runDir, settleMs);
      }
    },
  };
}
