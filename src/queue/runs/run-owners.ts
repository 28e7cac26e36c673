import type { BatchRecord } from '../../core/batch/batch-record.js';
import type { CancelOutcome, SubmitOutcome } from '../../core/batch/outcomes.js';
import type { QuestionBatch } from '../../core/protocol/questions/question.js';
import type { CancelInput, SubmitInput } from '../actions/action-inputs.js';

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

/**
 * The owners to ask about `record` when another relay holds its run; undefined when this relay
 * does, as it holds every run outside shared mode (no `owners`).
 */
export function otherOwner(
  owners: RunOwners | undefined,
  record: BatchRecord,
): RunOwners | undefined {
  return owners && !owners.holds(record) ? owners : undefined;
}
