import type { BatchRecord, BatchStatus } from '../../core/batch/batch-record.js';
import { type Refusal, refusalFor } from '../../core/batch/refusal.js';
import type { RecordChange, RecordEdit, StateStore } from '../../store/state-store.js';
import { otherOwner, type RunOwners } from '../runs/run-owners.js';
import type { RunScheduler } from '../runs/run-scheduler.js';

/** A change made on an open batch: the record as it is afterwards, and whether it changed. */
export interface OpenChange {
  kind: 'saved';
  record: BatchRecord;
  changed: boolean;
}

/**
 * How every action reaches an open batch: refused with a reason when the batch is not open or
 * has changed since, and otherwise in its run's turn when this relay holds the run.
 */
export interface OpenBatchChanges {
  /**
   * Changes the open batch `key` (at `revision`; undefined: any version, as for reminders)
   * with `edit`, which may leave it (undefined). Gives why not, or the record as it is
   * afterwards and whether it changed; the change is shown when this relay holds the run.
   * `also`: a batch in that status is changed too (Undo's `held`).
   */
  change(
    key: string,
    revision: string | undefined,
    edit: RecordEdit,
    also?: BatchStatus,
  ): Promise<Refusal | OpenChange>;
  /**
   * Runs `task` on the open batch `key` of this relay under its run's lock, or says why not;
   * for work that needs the run's files (Cancel, Submit).
   */
  onOwn<T>(
    key: string,
    revision: string,
    task: (record: BatchRecord, runDir: string) => Promise<T>,
  ): Promise<T | Refusal>;
}

/** What {@link createOpenBatchChanges} needs. */
export interface OpenBatchChangesDeps {
  store: Pick<StateStore, 'get'>;
  scheduler: Pick<RunScheduler, 'exclusive'>;
  /** Changes a stored record, stamped with the time (see `stampedChange`). */
  change: RecordChange;
  /** Brings what people see of a run in line with its records. */
  show: (runDir: string) => Promise<void>;
  /** Shared mode, for a batch of another machine; absent, this relay holds every batch. */
  owners?: RunOwners;
}

/** What Cancel and Submit, which work on a batch's files, need besides their own. */
export interface OwnBatchWorkDeps extends Omit<OpenBatchChangesDeps, 'scheduler'> {
  /** Where the work runs when this relay holds the batch's run. */
  open: Pick<OpenBatchChanges, 'onOwn'>;
  now: () => Date;
}

/**
 * Changes to open batches made on the record as it is now, so a change another relay made at
 * the same moment is never lost; on this relay's own batches, under the run's lock.
 */
export function createOpenBatchChanges(deps: OpenBatchChangesDeps): OpenBatchChanges {
  const { store, scheduler } = deps;
  const holds = (record: BatchRecord) => !otherOwner(deps.owners, record);

  /** Runs `task` under the run's lock when this relay holds the run; as it is otherwise. */
  function inTurn<T>(record: BatchRecord, task: () => Promise<T>): Promise<T> {
    return holds(record) ? scheduler.exclusive(record.runDir, task) : task();
  }

  return {
    async change(key, revision, edit, also) {
      const known = store.get(key);
      if (!known) return { kind: 'unknown' };
      return inTurn(known, async () => {
        const at = revision === undefined ? { also } : { revision, also };
        let refusal: Refusal | undefined;
        let changed = false;
        const stored = await deps.change(key, (current) => {
          refusal = refusalFor(current, at);
          const next = refusal ? undefined : edit(current);
          changed = next !== undefined;
          return next;
        });
        if (refusal) return refusal;
        if (!stored) return { kind: 'unknown' } as const;
        if (changed && holds(stored)) await deps.show(stored.runDir);
        return { kind: 'saved', record: store.get(key) ?? stored, changed } as const;
      });
    },

    async onOwn(key, revision, task) {
      const runDir = store.get(key)?.runDir;
      if (!runDir) return { kind: 'unknown' };
      return scheduler.exclusive(runDir, async () => {
        const record = store.get(key);
        return refusalFor(record, { revision }) ?? task(record as BatchRecord, runDir);
      });
    },
  };
}
