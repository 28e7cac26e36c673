import type { Logger } from 'pino';
import { undone, withClaim, withDraft, withFollowUp } from '../../core/batch/batch-changes.js';
import type { BatchRecord } from '../../core/batch/batch-record.js';
import { withHandOff } from '../../core/batch/hand-off.js';
import type {
  CancelOutcome,
  ClaimOutcome,
  DraftOutcome,
  SubmitOutcome,
  UndoOutcome,
} from '../../core/batch/outcomes.js';
import type { Answer, QuestionBatch } from '../../core/protocol/questions/question.js';
import type { RecordChange, RecordEdit, StateStore } from '../../store/state-store.js';
import type { QuestionReader } from '../runs/question-reader.js';
import { otherOwner, type RunOwners } from '../runs/run-owners.js';
import type { RunScheduler } from '../runs/run-scheduler.js';
import type { CancelInput, SubmitInput } from './action-inputs.js';
import { cancelBatch } from './cancel-batch.js';
import { createOpenBatchChanges } from './open-batch-changes.js';
import { submitBatch } from './submit-batch.js';

/**
 * What people do to a batch (choose, type, hand off, claim, cancel, submit), and what the
 * relay does to an open one (reminders, escalation): the queue's `actions`, which Slack's
 * listeners, the reminders and the work other relays ask for go through. Each is refused with
 * a reason when the batch is not open or has changed since.
 */
export interface BatchActions {
  /** The record and its questions, for rendering and decoding a person's action. */
  lookup(key: string): Promise<BatchLookup | undefined>;
  /** Records one choice (undefined clears it) as soon as it is made. */
  saveDraft(
    key: string,
    input: { revision: string; questionId: string; answer: Answer | undefined },
  ): Promise<DraftOutcome>;
  /** Records the text typed for an envelope question's choice (`''` clears it), like a draft. */
  saveFollowUp(
    key: string,
    input: { revision: string; questionId: string; text: string },
  ): Promise<DraftOutcome>;
  /**
   * Records a hand-off of an open batch to `to` (who becomes its assignee); a claim on it
   * moves to `to` as well.
   */
  handOff(
    key: string,
    input: { revision: string; from: string; to: string; note?: string },
  ): Promise<DraftOutcome>;
  /**
   * Changes an open batch's record, whatever its revision (reminders and escalation); `edit`
   * returning `undefined` leaves it as it is. Gives the stored record, or `undefined` when the
   * batch is not open (any more) or nothing changed.
   */
  amendOpen(key: string, edit: RecordEdit): Promise<BatchRecord | undefined>;
  /**
   * `user` marks an open batch as theirs (`release`: clears their mark). Decided on the
   * record as it is, so of two people pressing at once only the first gets it.
   */
  claim(
    key: string,
    input: { revision: string; user: string; release: boolean },
  ): Promise<ClaimOutcome>;
  /** Closes an open envelope batch without answers (see `cancelBatch`). */
  cancel(key: string, input: CancelInput): Promise<CancelOutcome>;
  /** Publishes the answers of an open batch, then shows the result (see `submitBatch`). */
  submit(key: string, input: SubmitInput): Promise<SubmitOutcome>;
  /**
   * Undo: a held decision (see `holding`) put back before its answer file is written, by the
   * person who made it (`by`). Decided on the record as stored, so Undo and the end of the
   * window never both happen.
   */
  undo(key: string, input: { by: string }): Promise<UndoOutcome>;
}

/** A batch as an action finds it: its record, and its questions when they can be read. */
export interface BatchLookup {
  record: BatchRecord;
  batch: QuestionBatch | undefined;
}

/** What {@link createBatchActions} needs. */
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
  /** How long a Submit's decision is held for Undo, in ms (see `submitBatch`); absent: none. */
  holdFor?: (input: SubmitInput) => number;
  /** Looks at a run again at `at`: when a held decision is due. */
  wakeAt?: (runDir: string, at: Date) => void;
  log: Logger;
  now: () => Date;
}

/**
 * The batch actions. Every change is made on the record as it is now, so a change another
 * relay made at the same moment is never lost. On this relay's own batches the work runs under
 * the run's lock and shows its result; a batch of another machine is shown by its own relay,
 * which also does what needs its files.
 */
export function createBatchActions(deps: BatchActionsDeps): BatchActions {
  const { store, questions } = deps;
  const open = createOpenBatchChanges(deps);
  const nowIso = () => deps.now().toISOString();

  /** A change people make: saved, or why not. */
  async function saveChange(
    key: string,
    revision: string,
    edit: RecordEdit,
  ): Promise<DraftOutcome> {
    const outcome = await open.change(key, revision, edit);
    return outcome.kind === 'saved' ? { kind: 'saved', record: outcome.record } : outcome;
  }

  return {
    async lookup(key) {
      const record = store.get(key);
      if (!record) return undefined;
      const owner = otherOwner(deps.owners, record);
      const batch = owner ? await owner.batchOf(record) : await questions.batchOf(record);
      return { record, batch };
    },

    saveDraft: (key, input) =>
      saveChange(key, input.revision, (record) =>
        withDraft(record, input.questionId, input.answer),
      ),

    saveFollowUp: (key, input) =>
      saveChange(key, input.revision, (record) =>
        withFollowUp(record, input.questionId, input.text),
      ),

    handOff(key, input) {
      const at = nowIso();
      return saveChange(key, input.revision, (record) =>
        withHandOff(record, { from: input.from, to: input.to, at, note: input.note }),
      );
    },

    async amendOpen(key, edit) {
      const outcome = await open.change(key, undefined, edit);
      return outcome.kind === 'saved' && outcome.changed ? outcome.record : undefined;
    },

    async claim(key, input) {
      let holder: string | undefined;
      const outcome = await open.change(key, input.revision, (record) => {
        const change = withClaim(record, input.user, input.release);
        holder = change.kind === 'claimed-by-other' ? change.by : undefined;
        return change.kind === 'changed' ? change.record : undefined;
      });
      if (outcome.kind !== 'saved') return outcome;
      return holder
        ? { kind: 'claimed-by-other', by: holder }
        : { kind: 'saved', record: outcome.record };
    },

    cancel: (key, input) => cancelBatch(key, input, { ...deps, open }),

    submit: (key, input) => submitBatch(key, input, { ...deps, open }),

    async undo(key, input) {
      let by: string | undefined;
      const outcome = await open.change(
        key,
        undefined,
        (record) => {
          if (record.status !== 'held') return undefined;
          by = record.answeredBy;
          return by === input.by ? undone(record) : undefined;
        },
        'held',
      );
      if (outcome.kind !== 'saved') return outcome;
      if (outcome.changed) return { kind: 'undone', record: outcome.record };
      return by === undefined
        ? { kind: 'closed', status: outcome.record.status }
        : { kind: 'not-yours', by };
    },
  };
}
