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
import { withHandOff } from '../core/batch/hand-off.js';
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
import type { Answer, QuestionBatch } from '../core/protocol/question.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import type { RecordChange, RecordEdit, StateStore } from '../store/state-store.js';
import type { QuestionReader } from './question-reader.js';
import type { RunScheduler } from './run-scheduler.js';

export type { CancelOutcome, ClaimOutcome, DraftOutcome, SubmitOutcome };

/**
 * Shared mode: the relays holding batches' runs (each run's owner, the relay on its machine),
 * asked what only the owner can do by the relay that got the click (see `src/cluster/`).
 */
export interface RunOwners {
  /** Whether this relay holds the batch's run (a batch of a single relay always is). */
  holds(record: BatchRecord): boolean;
  /** The questions of a batch whose run is on another machine, as its relay read them. */
  batchOf(record: BatchRecord): Promise<QuestionBatch | undefined>;
  submit(record: BatchRecord, input: SubmitInput): Promise<SubmitOutcome>;
  cancel(record: BatchRecord, input: CancelInput): Promise<CancelOutcome>;
}

/** What Submit carries besides the batch. */
export interface SubmitInput {
  revision: string;
  by: string;
  /** choices a person's screen reports with Submit; they only fill questions without a draft */
  unsaved?: ReadonlyMap<string, Answer>;
  /** a one-tap answer: the person's answer itself */
  tapped?: { questionId: string; answer: Answer };
}

/** What Cancel carries besides the batch. */
export interface CancelInput {
  revision: string;
  by: string;
}

export interface BatchActionsDeps {
  store: StateStore;
  scheduler: Pick<RunScheduler, 'exclusive' | 'schedule'>;
  questions: Pick<QuestionReader, 'batchOf' | 'read'>;
  /** Changes a stored record, stamped with the time (see `stampedChange`). */
  change: RecordChange;
  /** Brings what people see of a run in line with its records. */
  show: (runDir: string) => Promise<void>;
  /** Publishes the answer file of a `submitting` record. */
  finishSubmit: (record: BatchRecord) => Promise<SubmitOutcome>;
  /** Throws when the folder of a file to write may not be written (see `createFolderGuard`). */
  assertWritable: (file: string) => Promise<void>;
  /** Shared mode; absent, this relay holds every batch. */
  owners?: RunOwners;
  log: Logger;
  now: () => Date;
}

/**
 * What people do to a batch (choose, type, hand off, claim, cancel, submit), each refused with
 * a reason when the batch is not open or has changed since. Every change is made on the record
 * as it is now, so a change another relay made at the same moment is never lost. On this
 * relay's own batches the work runs under the run's lock and shows its result; a batch of
 * another machine is shown by its own relay, which also does what needs its files.
 */
export function createBatchActions(deps: BatchActionsDeps) {
  const { store, scheduler, questions, log } = deps;
  const nowIso = () => deps.now().toISOString();
  const holds = (record: BatchRecord) => deps.owners?.holds(record) ?? true;

  /** Runs `task` under the run's lock when this relay holds the run; as it is otherwise. */
  function inTurn<T>(record: BatchRecord, task: () => Promise<T>): Promise<T> {
    return holds(record) ? scheduler.exclusive(record.runDir, task) : task();
  }

  /**
   * Changes the open batch `key` (at `revision`; left out: any version, as for reminders) with
   * `change`, which may leave it (undefined). Gives why not, or the record as it is afterwards
   * and whether it changed; the change is shown when this relay holds the run.
   */
  async function changeOpen(
    key: string,
    revision: string | undefined,
    change: RecordEdit,
  ): Promise<Refusal | { kind: 'saved'; record: BatchRecord; changed: boolean }> {
    const known = store.get(key);
    if (!known) return { kind: 'unknown' };
    return inTurn(known, async () => {
      const at = revision === undefined ? {} : { revision };
      let refusal: Refusal | undefined;
      let changed = false;
      const stored = await deps.change(key, (current) => {
        refusal = refusalFor(current, at);
        const next = refusal ? undefined : change(current);
        changed = next !== undefined;
        return next;
      });
      if (refusal) return refusal;
      if (!stored) return { kind: 'unknown' } as const;
      if (changed && holds(stored)) await deps.show(stored.runDir);
      return { kind: 'saved', record: store.get(key) ?? stored, changed } as const;
    });
  }

  /** A change people make: saved, or why not. */
  async function saveChange(
    key: string,
    revision: string,
    change: (record: BatchRecord) => BatchRecord,
  ): Promise<DraftOutcome> {
    const outcome = await changeOpen(key, revision, change);
    return outcome.kind === 'saved' ? { kind: 'saved', record: outcome.record } : outcome;
  }

  /**
   * Runs `task` on the open batch `key` of this relay under its run's lock, or says why not;
   * for work that needs the run's files (Cancel, Submit).
   */
  async function onOwnOpen<T>(
    key: string,
    revision: string,
    task: (record: BatchRecord, runDir: string) => Promise<T>,
  ): Promise<T | Refusal> {
    const runDir = store.get(key)?.runDir;
    if (!runDir) return { kind: 'unknown' };
    return scheduler.exclusive(runDir, async () => {
      const record = store.get(key);
      return refusalFor(record, { revision }) ?? task(record as BatchRecord, runDir);
    });
  }

  return {
    /** The record and its questions, for rendering and decoding a person's action. */
    async lookup(key: string) {
      const record = store.get(key);
      if (!record) return undefined;
      const batch = holds(record)
        ? await questions.batchOf(record)
        : await deps.owners?.batchOf(record);
      return { record, batch };
    },

    /** Records one choice (undefined clears it) as soon as it is made. */
    saveDraft(
      key: string,
      input: { revision: string; questionId: string; answer: Answer | undefined },
    ): Promise<DraftOutcome> {
      return saveChange(key, input.revision, (record) =>
        withDraft(record, input.questionId, input.answer),
      );
    },

    /** Records the text typed for an envelope question's choice (`''` clears it), like a draft. */
    saveFollowUp(
      key: string,
      input: { revision: string; questionId: string; text: string },
    ): Promise<DraftOutcome> {
      return saveChange(key, input.revision, (record) =>
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
      const at = nowIso();
      return saveChange(key, input.revision, (record) =>
        withHandOff(record, { from: input.from, to: input.to, at, note: input.note }),
      );
    },

    /**
     * Changes an open batch's record, whatever its revision (reminders and escalation);
     * `change` returning `undefined` leaves it as it is. Gives the stored record, or
     * `undefined` when the batch is not open (any more) or nothing changed.
     */
    async amendOpen(key: string, change: RecordEdit): Promise<BatchRecord | undefined> {
      const outcome = await changeOpen(key, undefined, change);
      return outcome.kind === 'saved' && outcome.changed ? outcome.record : undefined;
    },

    /**
     * `user` marks an open batch as theirs (`release`: clears their mark). Decided on the
     * record as it is, so of two people pressing at once only the first gets it.
     */
    async claim(
      key: string,
      input: { revision: string; user: string; release: boolean },
    ): Promise<ClaimOutcome> {
      let holder: string | undefined;
      const outcome = await changeOpen(key, input.revision, (record) => {
        const change = withClaim(record, input.user, input.release);
        holder = change.kind === 'claimed-by-other' ? change.by : undefined;
        return change.kind === 'changed' ? change.record : undefined;
      });
      if (outcome.kind !== 'saved') return outcome;
      return holder
        ? { kind: 'claimed-by-other', by: holder }
        : { kind: 'saved', record: outcome.record };
    },

    /**
     * Closes an open envelope batch without answers: writes `cancelled.json` into its folder
     * for the waiting `ask`, then records who cancelled. No answer file is written.
     */
    cancel(key: string, input: CancelInput): Promise<CancelOutcome> {
      const known = store.get(key);
      if (known && !holds(known) && deps.owners) {
        const refusal = refusalFor(known, { revision: input.revision });
        return refusal ? Promise.resolve(refusal) : deps.owners.cancel(known, input);
      }
      return onOwnOpen(key, input.revision, async (open, runDir): Promise<CancelOutcome> => {
        const batch = await questions.batchOf(open);
        if (!batch) return { kind: 'out-of-date' };
        if (!isEnvelopeBatch(batch)) return { kind: 'not-cancellable' };
        const { seq } = open;
        const at = nowIso();
        const content = serializeCancellation({ seq, cancelledBy: input.by, cancelledAt: at });
        try {
          const file = path.join(runDir, CANCELLED_FILE_NAME);
          await deps.assertWritable(file);
          await writeFileAtomic(file, content);
        } catch (err) {
          log.error({ err, runDir, seq }, 'could not write the cancellation');
          return {
            kind: 'write-failed',
            message: err instanceof Error ? err.message : String(err),
          };
        }
        log.info({ runDir, seq, by: input.by }, 'batch cancelled');
        const record = await deps.change(key, (current) => cancelled(current, input.by, at));
        await deps.show(runDir);
        return { kind: 'cancelled', record: record ?? open };
      });
    },

    /**
     * Validates the drafts, publishes the answer file, then shows the result. The drafts are
     * the truth: `unsaved` (choices a person's screen reports with Submit) only fills questions
     * that have no draft, while `tapped` (a one-tap answer) is the person's answer itself.
     */
    async submit(key: string, input: SubmitInput): Promise<SubmitOutcome> {
      const known = store.get(key);
      if (known && !holds(known) && deps.owners) {
        const refusal = refusalFor(known, { revision: input.revision, passSubmitting: true });
        return refusal ?? deps.owners.submit(known, input);
      }
      const outcome = await onOwnOpen(key, input.revision, (open, runDir) =>
        submitOwn(open, runDir, input),
      );
      // whatever happened, look at the run again: its next batch, or a rewritten file
      const runDir = store.get(key)?.runDir;
      if (runDir) scheduler.schedule(runDir);
      return outcome;
    },
  };

  /** Submit on a batch of this relay, under its run's lock. */
  async function submitOwn(
    open: BatchRecord,
    runDir: string,
    input: SubmitInput,
  ): Promise<SubmitOutcome> {
    // Read the file again: the agent may have rewritten it since the last event arrived.
    const read = await questions.read(runDir, open.seq);
    if (read.kind !== 'valid' || read.fingerprint !== open.fingerprint) {
      return { kind: 'out-of-date' };
    }
    const batch = read.batch;
    let outcome: SubmitOutcome | undefined;
    const at = nowIso();
    // decided on the record as it is now: a choice another relay saved a moment ago counts
    const sent = await deps.change(open.key, (current) => {
      const refusal = refusalFor(current, { revision: input.revision });
      if (refusal) {
        outcome = refusal;
        return undefined;
      }
      // the drafts win over what a screen reports; a tapped answer is the answer itself
      const drafts = idRecord([
        ...(input.unsaved ?? []),
        ...Object.entries(current.drafts),
        ...(input.tapped ? [[input.tapped.questionId, input.tapped.answer] as const] : []),
      ]);
      const built = buildAnswerFile(batch, drafts);
      if (!built.ok) {
        const missing = batch.questions
          .filter((q) => valueFor(drafts, q.id) === undefined)
          .map((q) => q.id);
        outcome = { kind: 'incomplete', missing, problems: built.error.map((p) => p.message) };
        return undefined;
      }
      const texts = current.followUps ?? idRecord();
      const needText = isEnvelopeBatch(batch)
        ? questionsMissingText(batch.questions, drafts, texts)
        : [];
      if (needText.length > 0) {
        outcome = { kind: 'needs-text', questionIds: needText };
        return undefined;
      }
      outcome = undefined;
      return submitting(current, drafts, input.by, at);
    });
    if (outcome) return outcome;
    if (!sent) return { kind: 'unknown' };
    const result = await deps.finishSubmit(sent);
    await deps.show(runDir);
    return result;
  }
}

/** What people can do to a batch: the part of the queue that Slack's listeners use. */
export type BatchActions = Pick<
  ReturnType<typeof createBatchActions>,
  'lookup' | 'saveDraft' | 'saveFollowUp' | 'handOff' | 'claim' | 'cancel' | 'submit'
>;
