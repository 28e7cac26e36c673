// A batch record, each field in this one file: its type (`BatchRecord`), how it is stored and
// read back (`batchRecordSchema`) and whether people see it (`visibleSignature`). The build
// fails until a field added to the type has the other two.
import * as z from 'zod';
import { NODE_NAME } from '../node-name.js';
import { idRecordSchema } from '../protocol/questions/id-record.js';
import type { Answer } from '../protocol/questions/question.js';

/** Where a batch is in its life. */
export const BATCH_STATUSES = [
  'open', // presented (or about to be), collecting answers
  'held', // answered, the answer file written once its undo window (`held.until`) ends
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

/**
 * The ways of answering a batch besides its own message, as its record and its final line
 * say them: a digest line's button, or the digest's Approve all.
 */
export const ANSWER_ROUTES = ['digest', 'approve-all'] as const;
export type AnswerRoute = (typeof ANSWER_ROUTES)[number];

/**
 * A decision held for a moment before its answer file is written (`RELAY_UNDO_SECONDS`): when
 * it is written, and what Undo puts back (the choices and typed text as they were before).
 */
export interface HeldDecision {
  /** ISO time the answer file is written, unless Undo came first */
  until: string;
  drafts: Record<string, Answer>;
  followUps?: Record<string, string>;
}

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
  /** How it was answered, when not on its own message (see `ANSWER_ROUTES`). */
  answeredVia?: AnswerRoute;
  /** A `held` batch's decision: when it is written, and what Undo puts back. */
  held?: HeldDecision;
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

const answerSchema: z.ZodType<Answer> = z.union([z.string(), z.array(z.string()), z.boolean()]);

const handOffSchema: z.ZodType<HandOff> = z.object({
  from: z.string().min(1),
  to: z.string().min(1),
  at: z.string(),
  note: z.string().optional(),
  undelivered: z.string().optional(),
});

// Typed against BatchRecord key by key: a field added there but not here fails the typecheck,
// instead of being dropped silently by every put.
const batchRecordShape = {
  key: z.string().min(1),
  node: z.string().regex(NODE_NAME).optional(),
  runDir: z.string().min(1),
  seq: z.number().int().positive(),
  fingerprint: z.string(),
  status: z.enum(BATCH_STATUSES),
  // keyed by question ids from files: kept in records without a prototype
  drafts: idRecordSchema(answerSchema),
  presentation: z.record(z.string(), z.unknown()).optional(),
  answeredBy: z.string().optional(),
  answeredAt: z.string().optional(),
  answeredVia: z.enum(ANSWER_ROUTES).optional(),
  held: z
    .object({
      until: z.string(),
      drafts: idRecordSchema(answerSchema),
      followUps: idRecordSchema(z.string()).optional(),
    })
    .optional(),
  followUps: idRecordSchema(z.string()).optional(),
  problem: z.string().optional(),
  note: z.string().optional(),
  undeliverable: z
    .object({ code: z.string(), fix: z.string(), at: z.string(), told: z.boolean() })
    .optional(),
  answersPending: z.literal(true).optional(),
  handoffs: z.array(handOffSchema).optional(),
  assignee: z.string().optional(),
  claimedBy: z.string().optional(),
  nextReminderAt: z.string().optional(),
  reminders: z.number().int().nonnegative().optional(),
  escalateAt: z.string().optional(),
  escalated: z.boolean().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
} satisfies { [K in keyof BatchRecord]-?: z.ZodType<BatchRecord[K]> };

/** One batch record as stored; also checks records handed to `put`, so every file reloads. */
export const batchRecordSchema = z.object(batchRecordShape) satisfies z.ZodType<BatchRecord>;

/**
 * Which fields of a batch record people see in Slack, so that a change to one is shown, and
 * which they don't; a function shows what it gives, and only while that is defined. Typed over
 * every field of `BatchRecord`: a field added there must be placed here, or the build fails, so
 * a new visible field cannot silently never reach Slack.
 */
const SHOWN: Readonly<Record<keyof BatchRecord, boolean | ((record: BatchRecord) => unknown)>> = {
  key: false, // fixed for the record
  runDir: false, // fixed for the record
  seq: false, // fixed for the record
  node: false, // fixed for the record
  fingerprint: true, // a rewritten question file is shown anew
  status: true,
  drafts: true,
  presentation: false, // where it is shown, not what
  answeredBy: true,
  answeredAt: true,
  // shown once the batch is answered through the digest: other records keep their signature
  answeredVia: (record) => record.answeredVia,
  // shown while held: the time its answer is written, beside Undo
  held: (record) => record.held?.until,
  followUps: true,
  problem: true,
  note: true,
  undeliverable: false, // a refusal is told once, not shown in the message
  answersPending: true, // another provider's answers are shown once their file reads whole
  handoffs: true,
  assignee: true,
  claimedBy: true,
  // shown once a reminder was sent: setting the first deadline edits no message
  nextReminderAt: (record) => (record.reminders ? record.nextReminderAt : undefined),
  reminders: false, // a reminder is its own thread reply
  escalateAt: false, // an escalation shows as the hand-off it makes
  escalated: false,
  createdAt: false,
  updatedAt: false, // changes with every save; a status change is what shows its time
};

const FIELDS = Object.entries(SHOWN) as [keyof BatchRecord, (typeof SHOWN)[keyof BatchRecord]][];
const SHOWN_FIELDS = FIELDS.filter(([, shown]) => shown === true).map(([name]) => name);
const SHOWN_WHILE = FIELDS.flatMap(([name, shown]) =>
  typeof shown === 'function' ? [[name, shown] as const] : [],
);

/**
 * What a record looks like to people: when it changes, the batch is shown again. A value shown
 * only at times is added only while it is there, so a record without it keeps the signature it
 * was stored with (a relay that learns to show one more thing edits no message for it).
 */
export function visibleSignature(record: BatchRecord): string {
  const always = SHOWN_FIELDS.map((name) => record[name] ?? null);
  const now = SHOWN_WHILE.flatMap(([name, shown]) => {
    const value = shown(record);
    return value === undefined ? [] : [[name, value]];
  });
  return JSON.stringify(now.length > 0 ? [...always, ...now] : always);
}
