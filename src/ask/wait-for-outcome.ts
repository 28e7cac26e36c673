import { type FSWatcher, watch } from 'node:fs';
import path from 'node:path';
import {
  type AskCancellation,
  CANCELLED_FILE_NAME,
  parseCancellation,
} from '../core/envelope/ask-cancellation.js';
import { removeIfPresent } from '../fs/durable-io.js';
import { readGuardedFile } from '../fs/read-protocol-file.js';
import { stopReason } from '../stop-signals.js';
import type { AskFolder } from './ask-folder.js';

/** How an `ask` ended. */
export type AskOutcome =
  /** the answer file appeared; `text` is its content */
  | { kind: 'answered'; text: string }
  /** someone pressed Cancel in Slack; `cancellation` is undefined if its file was unreadable */
  | { kind: 'cancelled'; cancellation: AskCancellation | undefined }
  | { kind: 'timed-out' }
  /** the wait was stopped (SIGINT/SIGTERM); `reason` is the abort reason, e.g. `SIGINT` */
  | { kind: 'aborted'; reason: string };

/** How long to wait, and what may stop the wait early. */
export interface WaitOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The safety-net poll for when file system events are missed (network file systems). */
  pollMs?: number;
  /**
   * Leave the batch in Slack when the wait stops without an outcome (the ask API's long poll,
   * which only looks): `timed-out` then means "still waiting".
   */
  leaveOnStop?: boolean;
}

const DEFAULT_POLL_MS = 1000;

/** Answer files echo their questions, so they can be a little over the 4 MiB of a q-out. */
const OUTCOME_MAX_BYTES = 16 * 1024 * 1024;

async function readIfPresent(file: string): Promise<string | undefined> {
  // the relay writes these files, but a FIFO put in their place must not hang `ask`
  const found = await readGuardedFile(file, { maxBytes: OUTCOME_MAX_BYTES, oneLinkOnly: false });
  if (found.kind === 'missing') return undefined;
  if (found.kind === 'refused') throw new Error(`${file} cannot be read: ${found.reason}`);
  return found.bytes.toString('utf8');
}

/** The outcome the folder shows now, if any: an answer wins over a cancellation. */
export async function readOutcome(folder: AskFolder): Promise<AskOutcome | undefined> {
  const answer = await readIfPresent(folder.answerFile);
  if (answer !== undefined) return { kind: 'answered', text: answer };
  const cancelled = await readIfPresent(path.join(folder.dir, CANCELLED_FILE_NAME));
  if (cancelled !== undefined) {
    return { kind: 'cancelled', cancellation: parseCancellation(cancelled) };
  }
  return undefined;
}

/**
 * Withdraws the batch in `folder` from Slack (its question file deleted, so the relay shows it
 * withdrawn) and returns the outcome it had reached just before, if any: that still counts.
 */
export async function withdrawAsk(folder: AskFolder): Promise<AskOutcome | undefined> {
  await removeIfPresent(folder.questionFile);
  return readOutcome(folder);
}

/**
 * Waits until the relay answers or cancels the batch in `folder`. File system events wake
 * it; a slow poll covers events that never come. On timeout or abort the question file is
 * deleted, so the relay shows the batch as withdrawn (unless `leaveOnStop`); an answer that
 * was published just before that still counts.
 */
export async function waitForOutcome(
  folder: AskFolder,
  opts: WaitOptions = {},
): Promise<AskOutcome> {
  let wake: () => void = () => undefined;
  const nudge = () => wake();
  let stop: 'timed-out' | 'aborted' | undefined = opts.signal?.aborted ? 'aborted' : undefined;
  const watchers: FSWatcher[] = [];
  for (const dir of [folder.dir, path.dirname(folder.answerFile)]) {
    try {
      const watcher = watch(dir, nudge);
      watcher.on('error', () => undefined); // the poll carries on without it
      watchers.push(watcher);
    } catch {
      // no events here (e.g. the folder is on a network file system): the poll covers it
    }
  }
  const poll = setInterval(nudge, opts.pollMs ?? DEFAULT_POLL_MS);
  const timer =
    opts.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          stop ??= 'timed-out';
          nudge();
        }, opts.timeoutMs);
  const onAbort = () => {
    stop ??= 'aborted';
    nudge();
  };
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      // armed before reading, so a change during the read is not lost
      const changed = new Promise<void>((resolve) => {
        wake = resolve;
      });
      const found = await readOutcome(folder);
      if (found) return found;
      if (stop !== undefined) {
        const late = opts.leaveOnStop ? undefined : await withdrawAsk(folder);
        if (late) return late;
        return stop === 'aborted'
          ? { kind: 'aborted', reason: stopReason(opts.signal?.reason) }
          : { kind: 'timed-out' };
      }
      await changed;
    }
  } finally {
    clearInterval(poll);
    if (timer) clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
    for (const watcher of watchers) watcher.close();
  }
}
