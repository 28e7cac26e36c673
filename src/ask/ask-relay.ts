import { randomBytes } from 'node:crypto';
import { formatProtocolError } from '../core/protocol/protocol-error.js';
import { parseQuestionFile } from '../core/protocol/questions/parse-question-file.js';
import type { QuestionBatch } from '../core/protocol/questions/question.js';
import {
  type AskFolder,
  askFolder,
  type BatchFile,
  batchText,
  deliverBatch,
  newAskId,
} from './ask-folder.js';
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
  | (AskOutcome & {
      /** the relay that took the batch */
      pid: number;
      /** the batch as the relay reads it, for reading its answer file */
      batch: QuestionBatch;
      folder: AskFolder;
    });

/** What {@link askRelay} needs: the batch and where the relay is. */
export interface AskRelayInput extends WaitOptions {
  /** the relay's state folder (`RELAY_STATE_DIR`, resolved) */
  stateDir: string;
  batch: BatchFile;
  now?: () => Date;
  /** Told once the relay has the batch, before the wait: where it waits. */
  onDelivered?: (delivered: { pid: number; folder: AskFolder }) => void;
}

/**
 * Puts one batch to people through the running relay, as `ask` does, and waits for its end:
 * the batch goes into the relay's own `asks/` folder (so the relay's Slack connection serves
 * it; nothing here talks to Slack), and the answer file, a cancellation, the timeout or the
 * signal ends the wait. On timeout or abort the batch is withdrawn from Slack. Every caller that
 * asks people on behalf of an agent (`ask`, Claude Code's hooks, the MCP tools) comes through
 * here.
 */
export async function askRelay(input: AskRelayInput): Promise<RelayAsk> {
  const { stateDir, batch } = input;
  const now = input.now ?? (() => new Date());
  const folder = askFolder(stateDir, newAskId(now(), randomBytes(4).toString('hex')), batch.seq);
  const parsed = parseQuestionFile(batchText(batch), folder.questionFile);
  // the caller built a batch the protocol refuses: a bug of the caller, said whole
  if (!parsed.ok) throw new Error(formatProtocolError(parsed.error));
  const pid = await findRunningRelay(stateDir);
  if (pid === undefined) return { kind: 'no-relay', stateDir };
  await deliverBatch(folder, batch);
  input.onDelivered?.({ pid, folder });
  const outcome = await waitForOutcome(folder, {
    ...(input.timeoutMs !== undefined ? { timeoutMs: input.timeoutMs } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.pollMs !== undefined ? { pollMs: input.pollMs } : {}),
  });
  return { ...outcome, pid, batch: parsed.value, folder };
}
