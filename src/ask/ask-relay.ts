import { randomBytes } from 'node:crypto';
import { formatProtocolError } from '../core/protocol/protocol-error.js';
import { parseQuestionFile } from '../core/protocol/questions/parse-question-file.js';
import type { QuestionBatch } from '../core/protocol/questions/question.js';
import { askFolder, type BatchFile, batchText, deliverBatch, newAskId } from './ask-folder.js';
import { findRunningRelay } from './find-running-relay.js';
import { type AskOutcome, type WaitOptions, waitForOutcome } from './wait-for-outcome.js';

/**
 * The process around a command that asks people for an agent (`ask`, `hook`): its
 * environment, its standard streams and what stops it. Tests pass their own.
 */
export interface AskingProcess {
  env: Record<string, string | undefined>;
  cwd: string;
  /** The whole of standard input; cut short when `signal` aborts. */
  readStdin: () => Promise<string>;
  /** Writes one line to stdout. */
  out: (line: string) => void;
  /** Writes one line to stderr. */
  err: (line: string) => void;
  /** Aborted when the command is stopped (a signal; for the hook, Claude Code going away). */
  signal?: AbortSignal;
  /** The safety-net poll while waiting (default 1 s). */
  pollMs?: number;
}

/** How a question put to the running relay ended. */
export type RelayAsk =
  /** no relay holds the state folder's lock */
  | { kind: 'no-relay'; stateDir: string }
  /** the relay on another machine could not be reached, or refused the ask: `reason` says which */
  | { kind: 'refused'; reason: string }
  | (AskOutcome & {
      /** the batch as the relay reads it, for reading its answer file */
      batch: QuestionBatch;
      /** where the answer file is, named in its errors */
      answerFile: string;
    });

/** One batch to put to people, and how long to wait for them. */
export interface AskInput extends WaitOptions {
  batch: BatchFile;
  now?: () => Date;
  /**
   * Told once the relay has the batch, before the wait: through which relay it was asked and
   * where it waits, as a phrase ("through the relay (pid 12); waiting for an answer in …").
   */
  onDelivered?: (where: string) => void;
}

/**
 * Puts one batch to people and waits for its end: through the relay of this machine's state
 * folder ({@link localAsker}) or one on another machine (`remoteAsker`). Every caller that asks
 * people on behalf of an agent (`ask`, Claude Code's hooks, the MCP tools) comes through one.
 */
export type Asker = (input: AskInput) => Promise<RelayAsk>;

/** The batch as the relay will read it; the caller built one the protocol refuses: a bug. */
export function readOwnBatch(batch: BatchFile, file: string): QuestionBatch {
  const parsed = parseQuestionFile(batchText(batch), file);
  if (!parsed.ok) throw new Error(formatProtocolError(parsed.error));
  return parsed.value;
}

/**
 * Asks through the relay running on `stateDir`: the batch goes into the relay's own `asks/`
 * folder (so the relay's Slack connection serves it; nothing here talks to Slack), and the
 * answer file, a cancellation, the timeout or the signal ends the wait. On timeout or abort
 * the batch is withdrawn from Slack.
 */
export const localAsker =
  (stateDir: string): Asker =>
  async (input) => {
    const now = input.now ?? (() => new Date());
    const { batch } = input;
    const folder = askFolder(stateDir, newAskId(now(), randomBytes(4).toString('hex')), batch.seq);
    const own = readOwnBatch(batch, folder.questionFile);
    const pid = await findRunningRelay(stateDir);
    if (pid === undefined) return { kind: 'no-relay', stateDir };
    await deliverBatch(folder, batch);
    input.onDelivered?.(`through the relay (pid ${pid}); waiting for an answer in ${folder.dir}`);
    const outcome = await waitForOutcome(folder, {
      ...(input.timeoutMs !== undefined ? { timeoutMs: input.timeoutMs } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.pollMs !== undefined ? { pollMs: input.pollMs } : {}),
    });
    return { ...outcome, batch: own, answerFile: folder.answerFile };
  };
