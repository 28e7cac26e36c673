import path from 'node:path';
import * as z from 'zod';
import { ANSWER_ROUTES, type BatchRecord } from '../batch/batch-record.js';
import { ESCALATION_FROM } from '../batch/hand-off.js';
import type { Answer } from '../protocol/questions/question.js';

/**
 * What a decision was: answers written, a batch cancelled, another tool's answers found, or
 * answers held for Undo put back (none written).
 */
export const AUDIT_DECISIONS = ['answered', 'cancelled', 'answered-elsewhere', 'undone'] as const;
export type AuditDecision = (typeof AUDIT_DECISIONS)[number];

/**
 * How it was given: on the batch's own message (as it came: by the person it was handed to, by
 * the escalation's target, after a reminder, or just so), through the digest, in another tool,
 * or Undo.
 */
export const AUDIT_HOWS = [
  'message',
  'hand-off',
  'escalation',
  'reminder',
  ...ANSWER_ROUTES,
  'elsewhere',
  'undo',
] as const;
export type AuditHow = (typeof AUDIT_HOWS)[number];

/** One line of the audit log: one decision on one batch. */
export interface AuditEntry {
  /** ISO time the decision was stored */
  at: string;
  decision: AuditDecision;
  /** the run folder */
  run: string;
  seq: number;
  key: string;
  /** the answers written (answered), or those put back (undone), by question id */
  answers?: Record<string, Answer>;
  /** Slack user id of who decided; absent for another tool's answers */
  by?: string;
  /** their display name in Slack when it was decided, if Slack said it in time */
  name?: string;
  how: AuditHow;
  /** the relay that stored it: its RELAY_NODE in shared mode, else its host name */
  relay: string;
}

const answerSchema: z.ZodType<Answer> = z.union([z.string(), z.array(z.string()), z.boolean()]);

/** One audit line as read back. */
export const auditEntrySchema = z.object({
  at: z.string(),
  decision: z.enum(AUDIT_DECISIONS),
  run: z.string(),
  seq: z.number().int().positive(),
  key: z.string(),
  answers: z.record(z.string(), answerSchema).optional(),
  by: z.string().optional(),
  name: z.string().optional(),
  how: z.enum(AUDIT_HOWS),
  relay: z.string(),
}) satisfies z.ZodType<AuditEntry>;

/**
 * The entry for a record that has just reached a decision, or whose held decision (`before`)
 * was just undone; undefined for any other.
 */
export function auditEntryOf(
  record: BatchRecord,
  relay: string,
  at: Date,
  before?: BatchRecord,
): AuditEntry | undefined {
  const common = {
    at: at.toISOString(),
    run: record.runDir,
    seq: record.seq,
    key: record.key,
    relay,
  };
  switch (record.status) {
    case 'answered':
      return {
        ...common,
        decision: 'answered',
        answers: { ...record.drafts },
        ...(record.answeredBy ? { by: record.answeredBy } : {}),
        how: record.answeredVia ?? howOnItsMessage(record),
      };
    case 'cancelled':
      return {
        ...common,
        decision: 'cancelled',
        ...(record.answeredBy ? { by: record.answeredBy } : {}),
        how: 'message',
      };
    case 'answered-elsewhere':
      return { ...common, decision: 'answered-elsewhere', how: 'elsewhere' };
    case 'open':
      if (before?.status !== 'held') return undefined;
      return {
        ...common,
        decision: 'undone',
        answers: { ...before.drafts },
        ...(before.answeredBy ? { by: before.answeredBy } : {}),
        how: 'undo',
      };
    default:
      return undefined;
  }
}

/**
 * How an answer on the batch's own message came: from the person it was last handed to (by a
 * person, or by escalation), after a reminder, or neither.
 */
function howOnItsMessage(record: BatchRecord): AuditHow {
  const last = record.handoffs?.at(-1);
  if (last && !last.undelivered && record.answeredBy === last.to) {
    return last.from === ESCALATION_FROM ? 'escalation' : 'hand-off';
  }
  return (record.reminders ?? 0) > 0 ? 'reminder' : 'message';
}

/** What `audit` shows: the entries of one run (its folder or name), one person, a recent time. */
export interface AuditFilter {
  run?: string;
  user?: string;
  /** ISO time: entries from then on */
  since?: string;
}

/** Whether an entry is one `filter` asks for. */
export function matchesAudit(entry: AuditEntry, filter: AuditFilter): boolean {
  if (
    filter.run !== undefined &&
    entry.run !== filter.run &&
    path.basename(entry.run) !== filter.run
  ) {
    return false;
  }
  if (filter.user !== undefined && entry.by !== filter.user) return false;
  return filter.since === undefined || entry.at >= filter.since;
}

const shownAnswer = (answer: Answer): string =>
  typeof answer === 'boolean'
    ? answer
      ? 'Yes'
      : 'No'
    : Array.isArray(answer)
      ? answer.join(', ')
      : answer;

/** One entry as a line for people: time, decision, batch, who and how, the answers. */
export function formatAuditLine(entry: AuditEntry): string {
  // a display name is the person's own text: no control characters reach the terminal
  const name = entry.name?.replace(/\p{Cc}/gu, '');
  const who = entry.by ? ` by ${name ? `${name} (${entry.by})` : entry.by}` : '';
  const how = entry.how === 'message' || entry.how === 'elsewhere' ? '' : ` via ${entry.how}`;
  const answers = Object.entries(entry.answers ?? {})
    .map(([id, answer]) => `${id}=${JSON.stringify(shownAnswer(answer))}`)
    .join(' ');
  const batch = `${path.basename(entry.run)} #${entry.seq}`;
  return [`${entry.at}  ${entry.decision}  ${batch}${who}${how}`, answers, `(${entry.relay})`]
    .filter((part) => part !== '')
    .join('  ');
}
