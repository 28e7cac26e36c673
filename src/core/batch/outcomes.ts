import type { BatchRecord } from './batch-record.js';
import type { Refusal } from './refusal.js';

/** Result of recording one choice, typed text or hand-off. */
export type DraftOutcome = { kind: 'saved'; record: BatchRecord } | Refusal;

/** Result of "I'm on it" / "Release": someone else may hold the batch already. */
export type ClaimOutcome = DraftOutcome | { kind: 'claimed-by-other'; by: string };

/**
 * Shared mode: the batch's run is on another machine (`node`), whose relay (the run's owner)
 * must write the answer file. `owner-offline`: that relay is not running; the request is kept
 * and done when it is back. `owner-slow`: it is running but has not answered yet; it will do it.
 */
export type OwnerPendingOutcome =
  | { kind: 'owner-offline'; node: string }
  | { kind: 'owner-slow'; node: string };

/** Result of a person pressing Submit (or a one-tap answer). */
export type SubmitOutcome =
  | OwnerPendingOutcome
  | { kind: 'answered'; record: BatchRecord }
  /** answered, and held for its undo window before the answer file is written */
  | { kind: 'held'; record: BatchRecord }
  | { kind: 'answered-elsewhere'; record: BatchRecord }
  | { kind: 'incomplete'; missing: string[]; problems: string[] }
  /** envelope batch: these questions' choices ask for typed text that is missing */
  | { kind: 'needs-text'; questionIds: string[] }
  | { kind: 'write-failed'; message: string }
  | Refusal;

/**
 * Result of Undo on a held decision: put back, or not the presser's to undo (`by` decided it),
 * or why not (written already: `closed`).
 */
export type UndoOutcome =
  | { kind: 'undone'; record: BatchRecord }
  | { kind: 'not-yours'; by: string }
  | Refusal;

/** Result of pressing Cancel on an envelope batch. */
export type CancelOutcome =
  | OwnerPendingOutcome
  | { kind: 'cancelled'; record: BatchRecord }
  | { kind: 'not-cancellable' }
  | { kind: 'write-failed'; message: string }
  | Refusal;
