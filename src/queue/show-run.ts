import path from 'node:path';
import type { Logger } from 'pino';
import { idRecord } from '../core/protocol/id-record.js';
import { parseAnswerFile } from '../core/protocol/parse-answer-file.js';
import { answerFileName } from '../core/protocol/qa-file-names.js';
import type { BatchRecord, StateStore } from '../store/batch-record.js';
import type { PresentContext, Presenter } from './presenter.js';
import { type QuestionReader, questionPath, readTextQuietly } from './question-reader.js';
import type { RunScheduler } from './run-scheduler.js';

export interface RunShowerDeps {
  store: StateStore;
  presenter: Presenter;
  questions: Pick<QuestionReader, 'cached' | 'readQuietly'>;
  scheduler: Pick<RunScheduler, 'succeeded' | 'backOff' | 'later'>;
  /** Stores a record (stamped with the time) and gives it back. */
  put: (record: BatchRecord) => Promise<BatchRecord>;
  log: Logger;
}

/** Keeps what people see of a run's batches in line with their records. */
export function createRunShower(deps: RunShowerDeps) {
  const { store, presenter, scheduler, put, log } = deps;

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
      const file = path.join(record.runDir, 'qa', answerFileName(record.seq));
      const text = await readTextQuietly(file);
      const parsed = text === undefined ? undefined : parseAnswerFile(text, file, ctx.batch);
      if (parsed?.ok) {
        ctx.answersElsewhere = idRecord(parsed.value.answers.map((a) => [a.id, a.answer]));
      }
    }
    return ctx;
  }

  return {
    /**
     * Calls the presenter for every record of the run whose visible state is not shown yet;
     * when that fails, the run is tried again after a growing back-off.
     */
    async show(runDir: string): Promise<void> {
      let failed: { err: unknown; seq: number } | undefined;
      for (const record of store.forRun(runDir)) {
        const signature = visibleSignature(record);
        if (record.presentation?.shown === signature) continue;
        const ctx = await contextFor(record);
        try {
          const presentation = await presenter.sync(record, ctx, async (partial) => {
            const current = store.get(record.key);
            if (current) await put({ ...current, presentation: { ...partial } });
          });
          const current = store.get(record.key);
          if (!current) continue;
          await put({ ...current, presentation: { ...presentation, shown: signature } });
          scheduler.succeeded(runDir);
        } catch (err) {
          // Keep going: one stuck message (say, a final edit) must not hold back the next batch.
          failed ??= { err, seq: record.seq };
        }
      }
      if (failed) {
        const delay = scheduler.backOff(runDir);
        log.warn(
          { err: failed.err, runDir, seq: failed.seq, retryInMs: delay },
          'could not show the batch to people; keeping it and trying again',
        );
        scheduler.later(delay, runDir);
      }
    },

    /** Whether people see every batch of the run as it is now. */
    allShown(runDir: string): boolean {
      return store
        .forRun(runDir)
        .every((record) => record.presentation?.shown === visibleSignature(record));
    },
  };
}

/** What a record looks like to people; when it changes, the presenter is called. */
function visibleSignature(record: BatchRecord): string {
  // follow-up text only counts when there is some, so older signatures stay valid
  const typed = record.followUps ? `|${JSON.stringify(record.followUps)}` : '';
  // likewise the team fields: records without hand-offs or claims keep their old signature
  const team =
    record.handoffs || record.claimedBy
      ? `|${JSON.stringify([record.handoffs ?? [], record.claimedBy ?? ''])}`
      : '';
  // another provider's answers are shown again once their file is whole
  const pending = record.answersPending ? '|answers-pending' : '';
  return `${record.status}|${record.fingerprint}|${JSON.stringify(record.drafts)}|${record.problem ?? ''}${typed}${team}${pending}`;
}
