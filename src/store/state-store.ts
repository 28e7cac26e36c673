import type { BatchRecord } from '../core/batch/batch-record.js';
import type { NoticeBook } from './notice-book.js';

/** Durable per-batch state. Reads are from memory; `put` resolves once the write is durable. */
export interface StateStore {
  get(key: string): BatchRecord | undefined;
  forRun(runDir: string): BatchRecord[];
  all(): BatchRecord[];
  put(record: BatchRecord): Promise<void>;
  /** Drops every record of a run, in memory and on disk (for runs that are gone for good). */
  forget(runDir: string): Promise<void>;
  /** Notices given about things outside any batch, so each is given once (see `NoticeBook`). */
  notices: NoticeBook;
  close(): Promise<void>;
}
