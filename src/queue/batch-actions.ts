import path from 'node:path';
import type { Logger } from 'pino';
import {
  cancelled,
  submitting,
  withClaim,
  withDraft,
  withFollowUp,
} from '../core/batch/batch-changes.js';
import type { BatchRecord } from '../core/batch/batch-record.js';
import { withHandoff } from '../core/batch/handoff.js';
import type {
  CancelOutcome,
  ClaimOutcome,
  DraftOutcome,
  SubmitOutcome,
} from '../core/batch/outcomes.js';
import { type Refusal, refusalFor } from '../core/batch/refusal.js';
import { CANCELLED_FILE_NAME, serializeCancellation } from '../core/envelope/ask-cancellation.js';
import { isEnvelopeBatch, questionsMissingText } from '../core/envelope/envelope-batch.js';
import { buildAnswerFile } from '../core/protocol/build-answer-file.js';
import { idRecord, valueFor } from '../core/protocol/id-record.js';
import type { Answer } from '../core/protocol/question.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import type { StateStore } from '../store/state-store.js';
import type { QuestionReader } from './question-reader.js';
import type { RunScheduler } from './run-scheduler.js';

export type { CancelOutcome, ClaimOutcome, DraftOutcome, SubmitOutcome };

export interface BatchActionsDeps {
  store: StateStore;
  scheduler: Pick<RunScheduler, 'exclusive' | 'schedule'>;
  questions: Pick<QuestionReader, 'batchOf' | 'read'>;
  /** Stores a record (stamped with the time) and gives it back. */
  save: (record: BatchRecord) => Promise<BatchRecord>;
  /** Brings what people see of a run in line with its records. */
  show: (runDir: string) => Promise<void>;
  /** Publishes the answer file of a `submitting` record. */
  finishSubmit: (record: BatchRecord) => Promise<SubmitOutcome>;
  log: Logger;
  now: () => Date;
}

/**
 * What people do to a batch (choose, type, hand off, claim, cancel, submit), each under its
 * run's lock and refused with a reason when the batch is not open or has changed since.
 */
export function createBatchActions(deps: BatchActionsDeps) {
  const { store, scheduler, questions, save, log } = deps;
  const nowIso = () => deps.now().toISOString();

  /**
   * Runs `task` on the open record `key` under its run's lock, or says why there is none.
   * Without `revision` any version of the batch will do (reminders, escalation).
   */
  async function onOpen<T>(
    key: string,
    revision: string | undefined,
    task: (record: BatchRecord, runDir: string) => Promise<T>,
  ): Promise<T | Refusal> {
    const runDir = store.get(key)?.runDir;
    if (!runDir) return { kind: 'unknown' };
    return scheduler.exclusive(runDir, async () => {
      const record = store.get(key);
      const refusal = refusalFor(record, revision === undefined ? {} : { revision });
      return refusal ?? task(record as BatchRecord, runDir);
    });
  }

  /** Stores a changed record and shows it; gives the record as stored. */
  async function saveAndShow(record: BatchRecord): Promise<BatchRecord> {
    const stored = await save(record);
    await deps.show(record.runDir);
    return store.get(record.key) ?? stored;
  }

  /** Changes an open record under its run's lock, then shows the change. */
  function updateOpen(
    key: string,
    revision: string,
    change: (record: BatchRecord) => BatchRecord,
  ): Promise<DraftOutcome> {
    return onOpen(key, revision, async (record) => ({
      kind: 'saved' as const,
      record: await saveAndShow(change(record)),
    }));
  }

  return {
    /** The record and its questions, for rendering and decoding a person's action. */
    async lookup(key: string) {
      const record = store.get(key);
      if (!record) return undefined;
      const batch = await questions.batchOf(record);
      return { record, batch };
    },

    /** Records one choice (undefined clears it) as soon as it is made. */
    saveDraft(
      key: string,
      input: { revision: string; questionId: string; answer: Answer | undefined },
    ): Promise<DraftOutcome> {
      return updateOpen(key, input.revision, (record) =>
        withDraft(record, input.questionId, input.answer),
      );
    },

    /** Records the text typed for an envelope question's choice (`''` clears it), like a draft. */
    saveFollowUp(
      key: string,
      input: { revision: string; questionId: string; text: string },
    ): Promise<DraftOutcome> {
      return updateOpen(key, input.revision, (record) =>
        withFollowUp(record, input.questionId, input.text),
      );
    },

    /**
     * Records a hand-off of an open batch to `to` (who becomes its assignee); a claim on it
     * moves to `to` as well.
     */
    handOff(
      key: string,
      input: { revision: string; from: string; to: string; note?: string },
    ): Promise<DraftOutcome> {
      return updateOpen(key, input.revision, (record) =>
        withHandoff(record, { from: input.from, to: input.to, at: nowIso(), note: input.note }),
      );
    },

    /**
     * Changes an open batch's record, whatever its revision, under its run's lock (reminders
     * and escalation); `change` returning `undefined` leaves it as it is. Gives the stored
     * record, or `undefined` when the batch is not open (any more) or nothing changed.
     */
    async amendOpen(
      key: string,
      change: (record: BatchRecord) => BatchRecord | undefined,
    ): Promise<BatchRecord | undefined> {
      const outcome = await onOpen(key, undefined, async (record) => {
        const changed = change(record);
        return { kind: 'amended' as const, record: changed && (await saveAndShow(changed)) };
      });
      return outcome.kind === 'amended' ? outcome.record : undefined;
    },

    /**
     * `user` marks an open batch as theirs (`release`: clears their mark). Decided under the
     * run's lock, so of two people pressing at once only the first gets it.
     */
    async claim(
      key: string,
      input: { revision: string; user: string; release: boolean },
    ): Promise<ClaimOutcome> {
      return onOpen(key, input.revision, async (record): Promise<ClaimOutcome> => {
        const change = withClaim(record, input.user, input.release);
        if (change.kind === 'claimed-by-other') return change;
        return { kind: 'saved', record: await saveAndShow(change.record) };
      });
    },

    /**
     * Closes an open envelope batch without answers: writes `cancelled.json` into its folder
     * for the waiting `ask`, then records who cancelled. No answer file is written.
     */
    cancel(key: string, input: { revision: string; by: string }): Promise<CancelOutcome> {
      return onOpen(key, input.revision, async (open, runDir): Promise<CancelOutcome> => {
        const batch = await questions.batchOf(open);
        if (!batch) return { kind: 'out-of-date' };
        if (!isEnvelopeBatch(batch)) return { kind: 'not-cancellable' };
        const { seq } = open;
        const at = nowIso();
        const content = serializeCancellation({ seq, cancelledBy: input.by, cancelledAt: at });
        try {
          await writeFileAtomic(path.join(runDir, CANCELLED_FILE_NAME), content);
        } catch (err) {
          log.error({ err, runDir, seq }, 'could not write the cancellation');
          return {
            kind: 'write-failed',
            message: err instanceof Error ? err.message : String(err),
          };
        }
        log.info({ runDir, seq, by: input.by }, 'batch cancelled');
        const record = await saveAndShow(cancelled(open, input.by, at));
        return { kind: 'cancelled', record };
      });
    },

    /**
     * Validates the drafts, publishes the answer file, then shows the result. The drafts are
     * the truth: `unsaved` (choices a person's screen reports with Submit) only fills questions
     * that have no draft, while `tapped` (a one-tap answer) is the person's answer itself.
     */
    async submit(
      key: string,
      input: {
        revision: string;
        by: string;
        unsaved?: ReadonlyMap<string, Answer>;
        tapped?: { questionId: string; answer: Answer };
      },
    ): Promise<SubmitOutcome> {
      const outcome = await onOpen(
        key,
        input.revision,
        async (open, runDir): Promise<SubmitOutcome> => {
          // Read the file again: the agent may have rewritten it since the last event arrived.
          const read = await questions.read(runDir, open.seq);
          if (read.kind !== 'valid' || read.fingerprint !== open.fingerprint) {
            return { kind: 'out-of-date' } as const;
          }
          const batch = read.batch;
          // the drafts win over what a screen reports; a tapped answer is the answer itself
          const drafts = idRecord([
            ...(input.unsaved ?? []),
            ...Object.entries(open.drafts),
            ...(input.tapped ? [[input.tapped.questionId, input.tapped.answer] as const] : []),
          ]);
          const built = buildAnswerFile(batch, drafts);
          if (!built.ok) {
            const missing = batch.questions
              .filter((q) => valueFor(drafts, q.id) === undefined)
              .map((q) => q.id);
            return { kind: 'incomplete', missing, problems: built.error.map((p) => p.message) };
          }
          const texts = open.followUps ?? idRecord();
          const needText = isEnvelopeBatch(batch)
            ? questionsMissingText(batch.questions, drafts, texts)
            : [];
          if (needText.length > 0) return { kind: 'needs-text', questionIds: needText };
          const submittingRecord = await save(submitting(open, drafts, input.by, nowIso()));
          const result = await deps.finishSubmit(submittingRecord);
          await deps.show(runDir);
          return result;
        },
      );
      // whatever happened, look at the run again: its next batch, or a rewritten file
      const runDir = store.get(key)?.runDir;
      if (runDir) scheduler.schedule(runDir);
      return outcome;
    },
  };
}

/** What people can do to a batch: the part of the queue that Slack's listeners use. */
export type BatchActions = Pick<
  ReturnType<typeof createBatchActions>,
  'lookup' | 'saveDraft' | 'saveFollowUp' | 'handOff' | 'claim' | 'cancel' | 'submit'
>;
