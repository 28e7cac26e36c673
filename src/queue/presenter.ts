import type { ProtocolError } from '../core/protocol/protocol-error.js';
import type { QuestionBatch } from '../core/protocol/question.js';
import type { BatchRecord } from '../store/batch-record.js';

/** What the presenter gets besides the record, to show a batch in its current state. */
export interface PresentContext {
  /** The questions, when the question file is readable and valid. */
  batch?: QuestionBatch;
  /** Why the question file was rejected, when the record is `malformed`. */
  error?: ProtocolError;
  /** Absolute path of the batch's `q-out-NNN.json`. */
  questionFile: string;
}

/**
 * Shows batches to people (the Slack side implements it). `sync` must be idempotent: it is
 * called whenever a record's visible state changed, again after a failure, and never
 * concurrently for one run. It returns the presentation data to keep with the record.
 */
export interface Presenter {
  sync(record: BatchRecord, ctx: PresentContext): Promise<Record<string, unknown> | undefined>;
}
