import path from 'node:path';
import { revisionOf } from '../batch/batch-key.js';
import type { BatchRecord } from '../batch/batch-record.js';
import { readOrigin } from '../protocol/questions/batch-origin.js';
import { valueFor } from '../protocol/questions/id-record.js';
import type { QuestionBatch } from '../protocol/questions/question.js';
import { type QuickBatch, quickBatch } from './quick-batch.js';

/** One open quick batch as the digest and Approve all show it. */
export interface DigestItem {
  key: string;
  /** the revision the line shows: a rewritten question file refuses its buttons */
  revision: string;
  /** the run's name, or the title of a batch the relay wrote (a hook's) */
  title: string;
  /** what the title's batch is about (a hook's project and session); absent for a run */
  detail?: string;
  /** the folder holding the run: batches are grouped by it in Approve all */
  project: string;
  seq: number;
  createdAt: string;
  assignee?: string;
  claimedBy?: string;
  quick: QuickBatch;
  /** answered already, and held for Undo: who answered, what, and until when */
  held?: { by: string; answer: string; until: string };
}

/** What a batch is called in the digest: its run's name, or the title of one the relay wrote. */
export const digestTitle = (record: BatchRecord, batch: QuestionBatch | undefined): string =>
  (batch && readOrigin(batch)?.title) ?? path.basename(record.runDir);

/**
 * The digest's item for an open batch, or for one whose answer is held for Undo; undefined
 * when the batch is not quick.
 */
export function digestItemOf(record: BatchRecord, batch: QuestionBatch): DigestItem | undefined {
  const open = record.status === 'open' && record.problem === undefined;
  if (!open && record.status !== 'held') return undefined;
  const quick = quickBatch(batch);
  if (!quick) return undefined;
  const held = record.held && heldOf(record, quick);
  const origin = readOrigin(batch);
  return {
    key: record.key,
    revision: revisionOf(record.fingerprint),
    title: digestTitle(record, batch),
    ...(origin?.detail ? { detail: origin.detail } : {}),
    project: origin?.project ?? path.dirname(record.runDir),
    seq: record.seq,
    createdAt: record.createdAt,
    ...(record.assignee ? { assignee: record.assignee } : {}),
    ...(record.claimedBy ? { claimedBy: record.claimedBy } : {}),
    quick,
    ...(held ? { held } : {}),
  };
}

/** A held batch's answer as its line shows it: the quick form's label for what was given. */
function heldOf(record: BatchRecord, quick: QuickBatch): DigestItem['held'] {
  const given = valueFor(record.drafts, quick.question.id);
  const choice = quick.choices.find((c) => JSON.stringify(c.answer) === JSON.stringify(given));
  return {
    by: record.answeredBy ?? 'unknown',
    answer: choice?.label ?? 'answered',
    until: record.held?.until ?? record.updatedAt,
  };
}

/** Oldest first; batches made at the same moment in a steady order. */
export const oldestFirst = (a: DigestItem, b: DigestItem): number =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.key < b.key ? -1 : 1;
