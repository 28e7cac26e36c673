import { idRecord, withIdValue } from '../protocol/questions/id-record.js';
import type { Answer } from '../protocol/questions/question.js';
import type { AnswerRoute, BatchRecord, BatchStatus } from './batch-record.js';

/**
 * What happens to a batch, as pure changes of its record: each takes the record as it is and
 * gives the record as it should be stored. The queue decides when; these say what.
 */

/** One choice recorded (`undefined` clears it). */
export const withDraft = (record: BatchRecord, questionId: string, answer: Answer | undefined) => ({
  ...record,
  drafts: withIdValue(record.drafts, questionId, answer),
});

/** The text typed for an envelope question's choice recorded (`''` clears it). */
export const withFollowUp = (record: BatchRecord, questionId: string, text: string) => ({
  ...record,
  followUps: withIdValue(record.followUps, questionId, text || undefined),
});

/** Who pressed "I'm on it" (or released it), or who holds the batch already. */
export type ClaimChange =
  | { kind: 'changed'; record: BatchRecord }
  | { kind: 'claimed-by-other'; by: string };

/** `user` marks the batch as theirs, or with `release` clears their mark; nobody takes another's. */
export function withClaim(record: BatchRecord, user: string, release: boolean): ClaimChange {
  const owner = record.claimedBy;
  if (owner && owner !== user) return { kind: 'claimed-by-other', by: owner };
  const { claimedBy: _, ...rest } = record;
  return { kind: 'changed', record: release ? rest : { ...rest, claimedBy: user } };
}

/** How far "Snooze" puts the next reminder off. */
export const SNOOZE_MS = 3_600_000;

/**
 * The next reminder put off `SNOOZE_MS` from `at` (never brought forward), or `undefined` when
 * none is due any more: the last was sent, or the batch has no reminders. Escalation keeps
 * its own deadline.
 */
export function snoozed(record: BatchRecord, at: Date): BatchRecord | undefined {
  if (record.nextReminderAt === undefined) return undefined;
  const until = Math.max(Date.parse(record.nextReminderAt), at.getTime() + SNOOZE_MS);
  return { ...record, nextReminderAt: new Date(until).toISOString() };
}

/**
 * The record for a rewritten question file (`fingerprint`), open again or malformed: what
 * belonged to the old version (choices, typed text, who answered, a write problem) is dropped.
 */
export function freshVersion(
  record: BatchRecord,
  fingerprint: string,
  status: Extract<BatchStatus, 'open' | 'malformed'>,
): BatchRecord {
  const {
    problem: _problem,
    followUps: _followUps,
    answeredBy: _by,
    answeredAt: _at,
    answeredVia: _via,
    held: _held,
    ...rest
  } = record;
  return { ...rest, drafts: idRecord(), fingerprint, status };
}

/** The batch ends without answers from anyone: its file or its run folder went away. */
export const ended = (record: BatchRecord, status: 'withdrawn' | 'run-removed'): BatchRecord => ({
  ...record,
  status,
});

/**
 * Another provider answered first; its answers are shown once its file reads whole
 * (`answersPending` until then).
 */
export function answeredElsewhere(record: BatchRecord, at: string): BatchRecord {
  const { problem: _, ...rest } = record;
  return {
    ...rest,
    status: 'answered-elsewhere',
    answeredAt: record.answeredAt ?? at,
    answersPending: true,
  };
}

/** Submit pressed with these answers: the answer file is being published. */
export function submitting(
  record: BatchRecord,
  drafts: BatchRecord['drafts'],
  by: string,
  at: string,
  via?: AnswerRoute,
): BatchRecord {
  const { answeredVia: _before, ...rest } = record;
  const sending = {
    ...rest,
    drafts,
    status: 'submitting' as const,
    answeredBy: by,
    answeredAt: at,
  };
  return via === undefined ? sending : { ...sending, answeredVia: via };
}

/**
 * The decision `sending` (made on `before`) held until `until` before its answer file is
 * written; Undo puts back the choices and typed text `before` had.
 */
export function holding(sending: BatchRecord, before: BatchRecord, until: string): BatchRecord {
  const kept = before.followUps ? { followUps: before.followUps } : {};
  return { ...sending, status: 'held', held: { until, drafts: before.drafts, ...kept } };
}

/** Undo: a held batch open again, exactly as it was before the decision. */
export function undone(record: BatchRecord): BatchRecord {
  const {
    held,
    answeredBy: _by,
    answeredAt: _at,
    answeredVia: _via,
    followUps: _followUps,
    ...rest
  } = record;
  const drafts = held?.drafts ?? record.drafts;
  const kept = held?.followUps ? { followUps: held.followUps } : {};
  return { ...rest, status: 'open', drafts, ...kept };
}

/** A held decision's window is over: its answer file is being published. */
export function released(record: BatchRecord): BatchRecord {
  const { held: _, ...rest } = record;
  return { ...rest, status: 'submitting' };
}

/** The answer file is published. */
export function answered(record: BatchRecord): BatchRecord {
  const { problem: _, ...rest } = record;
  return { ...rest, status: 'answered' };
}

/** The answer file could not be written: the batch is open again, with why. */
export const writeFailed = (record: BatchRecord, problem: string): BatchRecord => ({
  ...record,
  status: 'open',
  problem,
});

/** Someone pressed Cancel on an envelope batch: closed without answers, saying who. */
export const cancelled = (record: BatchRecord, by: string, at: string): BatchRecord => ({
  ...record,
  status: 'cancelled',
  answeredBy: by,
  answeredAt: at,
});
