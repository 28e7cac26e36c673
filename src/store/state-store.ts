import type { BatchRecord } from '../core/batch/batch-record.js';
import type { NoticeBook } from './notice-book.js';

/** Durable per-batch state. Reads are from memory; `put` resolves once the write is durable. */
export interface StateStore {
  get(key: string): BatchRecord | undefined;
  forRun(runDir: string): BatchRecord[];
  all(): BatchRecord[];
  put(record: BatchRecord): Promise<void>;
  /**
   * Atomic read-modify-write of one record: `change` gets the freshest record (it may be
   * called again if another relay changed the record meanwhile, so it must not have side
   * effects) and returns the next one, or undefined to leave it as it is. Resolves to the
   * record as stored afterwards, or undefined (without calling `change`) when no record has
   * `key`. `change` may not change the record's key, node, run or seq.
   */
  update(
    key: string,
    change: (current: BatchRecord) => BatchRecord | undefined,
  ): Promise<BatchRecord | undefined>;
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
