import type { BatchRecord } from '../core/batch/batch-record.js';
import type { NoticeBook } from './notice-book.js';

/**
 * A change to one record: given the freshest record, the next one, or undefined to leave it as
 * it is. It may be called again when another relay changed the record meanwhile, so it must
 * have no side effects; it may not change the record's key, node, run or seq.
 */
export type RecordEdit = (current: BatchRecord) => BatchRecord | undefined;

/**
 * Changes the record `key` as it is now with `edit` (see {@link RecordEdit}), atomically.
 * Resolves to the record as stored afterwards, or to undefined, without calling `edit`, when
 * no record has `key`.
 */
export type RecordChange = (key: string, edit: RecordEdit) => Promise<BatchRecord | undefined>;

/** Durable per-batch state. Reads are from memory; `put` resolves once the write is durable. */
export interface StateStore {
  get(key: string): BatchRecord | undefined;
  forRun(runDir: string): BatchRecord[];
  all(): BatchRecord[];
  put(record: BatchRecord): Promise<void>;
  /** Atomic read-modify-write of one record. */
  update: RecordChange;
  /**
   * `listener` is told of every record another relay changed (shared mode) as soon as this
   * relay learns of it, and of every record after a reload; returns how to stop. A store only
   * this relay writes never calls it.
   */
  watch(listener: (record: BatchRecord) => void): () => void;
  /** Drops every record of a run, in memory and on disk (for runs that are gone for good). */
  forget(runDir: string): Promise<void>;
  /** Notices given about things outside any batch, so each is given once (see `NoticeBook`). */
  notices: NoticeBook;
  close(): Promise<void>;
}

/**
 * Checks that `next`, from an `update`'s change, is still the batch `current` is: a change may
 * rewrite anything about a batch but which batch it is. Throws a TypeError saying what moved.
 */
export function assertSameBatch(current: BatchRecord, next: BatchRecord): void {
  const moved = (['key', 'node', 'runDir', 'seq'] as const).filter((f) => current[f] !== next[f]);
  if (moved.length > 0) {
    throw new TypeError(
      `an update of batch ${current.key} may not change its ${moved.join(', ')} (from ${moved.map((f) => JSON.stringify(current[f])).join(', ')} to ${moved.map((f) => JSON.stringify(next[f])).join(', ')}); put a new record instead`,
    );
  }
}
