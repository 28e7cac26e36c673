import type { Logger } from 'pino';
import { type BatchRecord, visibleSignature } from '../../core/batch/batch-record.js';
import { withUndeliveredHandOff } from '../../core/batch/hand-off.js';
import { parseAnswerFile } from '../../core/protocol/answers/parse-answer-file.js';
import { idRecord } from '../../core/protocol/questions/id-record.js';
import { answerPath, questionPath } from '../../core/protocol/run-folder.js';
import type { RecordChange, StateStore } from '../../store/state-store.js';
import {
  CopyRefused,
  type PresentContext,
  type Presenter,
  PresentRefused,
  PresentUnavailable,
} from '../presenter.js';
import type { SlackWait } from '../slack-wait.js';
import { createUpdatePacer } from '../update-pacer.js';
import { type QuestionReader, readTextQuietly } from './question-reader.js';
import type { RunScheduler } from './run-scheduler.js';

/** What people see of runs' batches, kept in line with their records. */
export interface RunDisplay {
  /**
   * Calls the presenter for every record of the run whose visible state is not shown yet;
   * when that fails, the run is tried again once Slack answers (if Slack is down), else
   * after a growing back-off.
   */
  show(runDir: string): Promise<void>;
  /** Lets every held-back batch be tried again; gives the runs they belong to. */
  release(): string[];
  /** Whether people see every batch of the run as it is now. */
  allShown(runDir: string): boolean;
}

export interface RunDisplayDeps {
  store: StateStore;
  presenter: Presenter;
  questions: Pick<QuestionReader, 'cached' | 'readQuietly'>;
  scheduler: Pick<RunScheduler, 'succeeded' | 'backOff' | 'later' | 'schedule'>;
  /** Where a run waits while Slack is down, instead of on its own back-off. */
  slackWait: Pick<SlackWait, 'hold'>;
  /** Changes a stored record, stamped with the time (see `stampedChange`). */
  change: RecordChange;
  log: Logger;
  now: () => Date;
  /** How long a batch Slack refused for good waits before it is tried again unchanged. */
  refusedRetryMs?: number;
  /** Least time between two edits of one batch's messages (default 250 ms; 0: none). */
  updateEveryMs?: number;
}

/** Default wait before a refused batch that did not change is tried again: an hour. */
const REFUSED_RETRY_MS = 60 * 60_000;

/** Keeps what people see of a run's batches in line with their records. */
export function createRunDisplay(deps: RunDisplayDeps): RunDisplay {
  const { store, presenter, scheduler, change, log } = deps;
  const refusedRetryMs = deps.refusedRetryMs ?? REFUSED_RETRY_MS;
  /**
   * Batches refused for good in this process, by key: what they looked like then, and until
   * when they are left alone. A restart, a change to the batch or the wait running out tries
   * again.
   */
  const heldBack = new Map<string, { signature: string; until: number }>();
  /**
   * Runs whose last show failed: the first failure is a warning, the retries after it are
   * debug lines (an outage of Slack is logged once, elsewhere, not once per retry per run).
   */
  const failing = new Set<string>();
  /** Changes close together (a burst of clicks) go out as one edit per batch per window. */
  const pacer = createUpdatePacer({
    everyMs: deps.updateEveryMs,
    showAgain: (runDir) => scheduler.schedule(runDir),
  });

  function isHeldBack(record: BatchRecord, signature: string): boolean {
    const held = heldBack.get(record.key);
    if (!held) return false;
    if (held.signature === signature && held.until > deps.now().getTime()) return true;
    heldBack.delete(record.key);
    return false;
  }

  /** A hand-off whose copy cannot reach the person ends; the batch is shown again, changed. */
  async function endHandOff(record: BatchRecord, refusal: CopyRefused) {
    const { runDir, seq } = record;
    log.warn(
      { runDir, seq, to: refusal.user, code: refusal.code },
      'the copy of a handed-off batch cannot reach that person; the hand-off ends and the batch stays answerable in the channel',
    );
    await change(record.key, (r) => withUndeliveredHandOff(r, refusal.user, refusal.code));
    scheduler.schedule(runDir);
  }

  /** Stops retrying a refused batch, and tells people once where the presenter can. */
  async function holdBack(record: BatchRecord, signature: string, refusal: PresentRefused) {
    heldBack.set(record.key, { signature, until: deps.now().getTime() + refusedRetryMs });
    scheduler.later(refusedRetryMs, record.runDir);
    const { runDir, seq } = record;
    log.error(
      { runDir, seq, code: refusal.code, fix: refusal.fix, retryInMs: refusedRetryMs },
      'Slack refused to show the batch, and trying again will not help until something changes; the agent is still waiting',
    );
    const current = store.get(record.key);
    if (!current) return;
    const before = current.undeliverable;
    const told =
      before?.code === refusal.code && before.told
        ? true
        : await presenter.tellRefused(current, refusal, questionPath(runDir, seq));
    const at = before?.code === refusal.code ? before.at : deps.now().toISOString();
    const undeliverable = { code: refusal.code, fix: refusal.fix, at, told };
    await change(record.key, (r) => ({ ...r, undeliverable }));
  }

  async function contextFor(record: BatchRecord): Promise<PresentContext> {
    const questionFile = questionPath(record.runDir, record.seq);
    const ctx: PresentContext = { questionFile };
    if (record.status === 'malformed') {
      // only the problem is shown, never an older valid version
      const read = await deps.questions.readQuietly(questionFile);
      if (read && !read.ok) ctx.error = read.error;
      return ctx;
    }
    const cached = deps.questions.cached(record.runDir, record.seq);
    if (cached) {
      ctx.batch = cached;
    } else if (record.status !== 'withdrawn' && record.status !== 'run-removed') {
      const read = await deps.questions.readQuietly(questionFile);
      if (read?.ok) ctx.batch = read.value;
      else if (read) ctx.error = read.error;
    }
    if (record.status === 'answered-elsewhere') {
      const file = answerPath(record.runDir, record.seq);
      const text = await readTextQuietly(file);
      // shown when readable: an echo that differs from the q-out (which `check` refuses) does
      // not make another provider's answers wrong
      const parsed =
        text === undefined ? undefined : parseAnswerFile(text, file, ctx.batch, 'answers');
      if (parsed?.ok) {
        ctx.answersElsewhere = idRecord(parsed.value.answers.map((a) => [a.id, a.answer]));
      }
    }
    return ctx;
  }

  return {
    async show(runDir) {
      let failed: { err: unknown; seq: number } | undefined;
      for (const record of store.forRun(runDir)) {
        const signature = visibleSignature(record);
        if (record.presentation?.shown === signature) continue;
        if (isHeldBack(record, signature)) continue;
        // a batch shown already is edited at most once per window; a new one is posted at once
        const edit = record.presentation?.shown !== undefined;
        if (edit && pacer.holds(record.key, runDir)) continue;
        const ctx = await contextFor(record);
        if (edit) pacer.edited(record.key);
        try {
          const presentation = await presenter.sync(record, ctx, async (partial) => {
            await change(record.key, (r) => ({ ...r, presentation: { ...partial } }));
          });
          // `shown` is what was shown: a change made meanwhile is shown at the next look
          await change(record.key, (r) => {
            const { undeliverable: _shownNow, ...rest } = r;
            return { ...rest, presentation: { ...presentation, shown: signature } };
          });
          scheduler.succeeded(runDir);
        } catch (err) {
          if (err instanceof PresentRefused) {
            await holdBack(record, signature, err);
            continue;
          }
          if (err instanceof CopyRefused) {
            await endHandOff(record, err);
            continue;
          }
          // Keep going: one stuck message (say, a final edit) must not hold back the next batch.
          failed ??= { err, seq: record.seq };
        }
      }
      if (!failed) {
        failing.delete(runDir);
        return;
      }
      const unavailable = failed.err instanceof PresentUnavailable;
      // a run that failed because Slack is down waits for Slack, not for a timer of its own
      const waitsForSlack = unavailable && deps.slackWait.hold(runDir);
      const delay = waitsForSlack ? undefined : scheduler.backOff(runDir);
      // an expected failure says enough in its message; anything else keeps its stack
      const why = unavailable ? { error: (failed.err as Error).message } : { err: failed.err };
      const when = delay === undefined ? { retry: 'once Slack answers' } : { retryInMs: delay };
      const fields = { ...why, runDir, seq: failed.seq, ...when };
      const message = 'could not show the batch to people; keeping it and trying again';
      if (failing.has(runDir)) log.debug(fields, message);
      else log.warn(fields, message);
      failing.add(runDir);
      if (delay !== undefined) scheduler.later(delay, runDir);
    },

    release() {
      const runs = new Set<string>();
      for (const key of heldBack.keys()) {
        const record = store.get(key);
        if (record) runs.add(record.runDir);
      }
      heldBack.clear();
      return [...runs];
    },

    allShown(runDir) {
      return store
        .forRun(runDir)
        .every((record) => record.presentation?.shown === visibleSignature(record));
    },
  };
}
