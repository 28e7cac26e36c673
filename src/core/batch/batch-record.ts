import type { Answer } from '../protocol/questions/question.js';

/** Where a batch is in its life. */
export const BATCH_STATUSES = [
  'open', // presented (or about to be), collecting answers
  'submitting', // answer file being published by us; survives a crash mid-write
  'answered', // we published q-answers-NNN.json
  'answered-elsewhere', // another provider published it first
  'withdrawn', // q-out file deleted before it was answered
  'run-removed', // the run folder disappeared
  'malformed', // q-out file does not parse; shown with its error until fixed
  'cancelled', // someone pressed Cancel on an `ask` batch; no answer file is written
] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** The statuses after which nothing about a batch changes any more. */
export const FINAL_STATUSES: readonly BatchStatus[] = [
  'answered',
  'answered-elsewhere',
  'withdrawn',
  'run-removed',
  'cancelled',
];

/** What the relay remembers about one batch across restarts. */
export interface BatchRecord {
  /** Stable short id, see `batchKey`. */
  key: string;
  /** Shared mode: the node (`RELAY_NODE`) whose machine holds the run; absent otherwise. */
  node?: string;
  runDir: string;
  seq: number;
  /** sha256 (hex) of the q-out file's bytes when last read. */
  fingerprint: string;
  status: BatchStatus;
  /** Partial answers by question id, recorded as they are made. */
  drafts: Record<string, Answer>;
  /** Owned by the presenter (Slack channel, message ts, …); opaque to the store. */
  presentation?: Record<string, unknown>;
  /** Slack user id of who answered, or who cancelled a `cancelled` batch. */
  answeredBy?: string;
  /** When it was answered or cancelled. */
  answeredAt?: string;
  /** Text typed for a question's `Other…` or follow-up choice (envelope batches), by question id. */
  followUps?: Record<string, string>;
  /** Why the last attempt to publish the answer file failed; cleared when one succeeds. */
  problem?: string;
  /** A remark for people fixed when the batch opened, e.g. a gap in the run's sequence. */
  note?: string;
  /** Why people cannot be shown the batch (a refusal no retry fixes); cleared once it is shown. */
  undeliverable?: Undeliverable;
  /**
   * Answered elsewhere, but that provider's answer file has not been read whole yet (it may
   * be written in place, bit by bit); cleared once it parses, or once it stops changing.
   */
  answersPending?: true;
  /**
   * Every hand-off so far, oldest first; escalations are recorded here too. Spelt as it was
   * first stored (every state file and Redis record has it), not `handOffs`.
   */
  handoffs?: HandOff[];
  /** Slack user id (or user group id) the batch was last handed to: the last `handoffs[].to`. */
  assignee?: string;
  /** Slack user id of who pressed "I'm on it"; cleared on release. */
  claimedBy?: string;
  /** ISO time the next reminder is due; set once reminders are on and the batch is open. */
  nextReminderAt?: string;
  /** How many reminders were sent. */
  reminders?: number;
  /** ISO time the batch is escalated if still open; set once escalation is on. */
  escalateAt?: string;
  /** Whether the batch was escalated (handed off automatically) already. */
  escalated?: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A refusal to show a batch that trying again cannot fix, as people are told of it. */
export interface Undeliverable {
  /** the refusal's code, e.g. Slack's `not_in_channel` */
  code: string;
  /** what to do about it, in one sentence */
  fix: string;
  /** ISO time it was refused */
  at: string;
  /** whether people were told where the batch would have been (not possible for every code) */
  told: boolean;
}

/** One hand-off of a batch from one person to another. */
export interface HandOff {
  /** Slack user id of who handed it on (the relay's own id for an escalation) */
  from: string;
  /** Slack user id or user group id it was handed to */
  to: string;
  /** ISO time of the hand-off */
  at: string;
  note?: string;
  /** Slack's reason the copy could not reach `to` (e.g. `user_disabled`); the hand-off ended there */
  undelivered?: string;
}
