import type { BatchRecord } from '../core/batch/batch-record.js';
import type { ProtocolError } from '../core/protocol/protocol-error.js';
import type { Answer, QuestionBatch } from '../core/protocol/questions/question.js';

/** What the presenter gets besides the record, to show a batch in its current state. */
export interface PresentContext {
  /** The questions, when the question file is readable and valid. */
  batch?: QuestionBatch;
  /** Why the question file was rejected, when the record is `malformed`. */
  error?: ProtocolError;
  /** The answers another provider wrote, when the record is `answered-elsewhere` and they parse. */
  answersElsewhere?: Record<string, Answer>;
  /** Absolute path of the batch's `q-out-NNN.json`. */
  questionFile: string;
}

/**
 * Shows batches to people (the Slack side implements it). `sync` must be idempotent: it is
 * called whenever a record's visible state changed, again after a failure, and never
 * concurrently for one run. It returns the presentation data to keep with the record, and
 * calls `save` with it as soon as anything was created (a message posted), so that a failure
 * or crash half-way never leads to creating it again.
 */
export interface Presenter {
  sync(
    record: BatchRecord,
    ctx: PresentContext,
    save: (presentation: Record<string, unknown>) => Promise<void>,
  ): Promise<Record<string, unknown> | undefined>;
  /**
   * Tells people, where it can, that a batch cannot be shown and why (after `sync` threw a
   * {@link PresentRefused}); resolves to whether anyone was told. Never throws.
   */
  tellRefused(record: BatchRecord, refusal: PresentRefused, questionFile: string): Promise<boolean>;
}

/**
 * Thrown by `Presenter.sync` when the copy of a batch handed to `user` cannot reach them and
 * never will as things are (deactivated, unknown, no direct messages): the hand-off ends there.
 */
export class CopyRefused extends Error {
  constructor(
    readonly user: string,
    /** the refusal's code, e.g. Slack's `user_disabled` */
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(`the copy for ${user} was refused with ${code}`, options);
    this.name = 'CopyRefused';
  }
}

/**
 * Thrown by `Presenter.sync` when the batch could not be shown for now, for a reason that
 * passes by itself (the service unreachable, overloaded, or rate limiting): the queue tries
 * again, and logs it by its message alone, as the expected failure it is.
 */
export class PresentUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PresentUnavailable';
  }
}

/**
 * Thrown by `Presenter.sync` when the batch cannot be shown and trying again will not help until
 * something changes (its content, the channel, the app's token). The queue stops retrying it.
 */
export class PresentRefused extends Error {
  constructor(
    /** the refusal's code, e.g. Slack's `msg_blocks_too_long` */
    readonly code: string,
    /** what to do about it, in one sentence */
    readonly fix: string,
    options?: { cause?: unknown },
  ) {
    super(`refused with ${code}: ${fix}`, options);
    this.name = 'PresentRefused';
  }
}
