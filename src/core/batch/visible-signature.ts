import type { BatchRecord } from './batch-record.js';

/**
 * Which fields of a batch record people see in Slack, so that a change to one is shown, and
 * which they don't. Typed over every field of `BatchRecord`: a field added there must be
 * placed here, or the build fails, so a new visible field cannot silently never reach Slack.
 */
const SHOWN: Readonly<Record<keyof BatchRecord, boolean>> = {
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
  followUps: true,
  problem: true,
  note: true,
  undeliverable: false, // a refusal is told once, not shown in the message
  answersPending: true, // another provider's answers are shown once their file reads whole
  handoffs: true,
  assignee: true,
  claimedBy: true,
  nextReminderAt: false, // reminders are their own thread replies
  reminders: false,
  escalateAt: false, // an escalation shows as the hand-off it makes
  escalated: false,
  createdAt: false,
  updatedAt: false, // changes with every save; a status change is what shows its time
};

const SHOWN_FIELDS = (Object.keys(SHOWN) as (keyof BatchRecord)[]).filter((name) => SHOWN[name]);

/** What a record looks like to people: when it changes, the batch is shown again. */
export function visibleSignature(record: BatchRecord): string {
  return JSON.stringify(SHOWN_FIELDS.map((name) => record[name] ?? null));
}
