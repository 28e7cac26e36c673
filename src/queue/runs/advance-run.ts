import type { Logger } from 'pino';
import {
  answeredElsewhere,
  ended,
  freshVersion,
  released,
} from '../../core/batch/batch-changes.js';
import { batchKey } from '../../core/batch/batch-key.js';
import type { BatchRecord, BatchStatus } from '../../core/batch/batch-record.js';
import type { SubmitOutcome } from '../../core/batch/outcomes.js';
import {
  describeGap,
  missingBefore,
  nextUnansweredSeq,
  type QaListing,
} from '../../core/protocol/qa-listing.js';
import { idRecord } from '../../core/protocol/questions/id-record.js';
import type { RecordChange, StateStore } from '../../store/state-store.js';
import type { FileRead, QuestionReader } from './question-reader.js';

/** Statuses of the one batch per run that is in front of people. */
const ACTIVE: readonly BatchStatus[] = ['open', 'held', 'submitting', 'malformed'];

/** What {@link advanceRun} needs. */
export interface AdvanceRunDeps {
  store: Pick<StateStore, 'get' | 'forRun' | 'put'>;
  questions: Pick<QuestionReader, 'read'>;
  /** Changes a stored record, stamped with the time (see `stampedChange`). */
  change: RecordChange;
  /** Publishes the answer file of a `submitting` record. */
  finishSubmit: (record: BatchRecord) => Promise<SubmitOutcome>;
  log: Logger;
  now: () => Date;
  /** Shared mode: this relay's machine, in the keys and records of the batches it opens. */
  node?: string;
  /** Looks at the run again at `at`: when a held decision's undo window ends. */
  wakeAt?: (runDir: string, at: Date) => void;
}

/** The batch of the run that is in front of people, if any. */
export function activeRecord(
  store: Pick<StateStore, 'forRun'>,
  runDir: string,
): BatchRecord | undefined {
  return store.forRun(runDir).find((r) => ACTIVE.includes(r.status));
}

/**
 * Moves a run along its `qa/` folder as `listing` shows it: closes the active batch when the
 * folder says so (answered, by us or another provider; withdrawn; rewritten), and opens the
 * next unanswered one in order. Stops at the first batch that stays in front of people.
 */
export async function advanceRun(
  runDir: string,
  listing: QaListing,
  deps: AdvanceRunDeps,
): Promise<void> {
  for (;;) {
    const active = activeRecord(deps.store, runDir);
    if (active) {
      const stillActive = await settleActive(active, listing, deps);
      if (stillActive) return;
      continue;
    }
    const seq = nextUnansweredSeq(listing);
    if (seq === undefined) return;
    const read = await deps.questions.read(runDir, seq);
    if (read.kind === 'settling') return;
    if (read.kind === 'missing') {
      listing.questions = listing.questions.filter((s) => s !== seq);
      continue;
    }
    const note = describeGap(missingBefore(listing, seq), seq);
    if (await openRecord(runDir, seq, read, note, deps)) return;
    listing.answers.add(seq);
  }
}

/** Brings the active record in line with its files; returns true while it stays active. */
async function settleActive(
  record: BatchRecord,
  listing: QaListing,
  deps: AdvanceRunDeps,
): Promise<boolean> {
  const { change, log } = deps;
  const { runDir, seq } = record;
  if (record.status === 'held') {
    const until = Date.parse(record.held?.until ?? '');
    if (!(until > deps.now().getTime())) {
      // its undo window is over: written now, unless Undo came first
      const sending = await change(record.key, (r) =>
        r.status === 'held' ? released(r) : undefined,
      );
      if (sending?.status !== 'submitting') return activeRecord(deps.store, runDir) !== undefined;
      return settleSubmitting(sending, listing, deps);
    }
    deps.wakeAt?.(runDir, new Date(until));
    // meanwhile the agent may withdraw or rewrite its file, or another tool answer it
  }
  if (record.status === 'submitting') return settleSubmitting(record, listing, deps);
  if (listing.answers.has(seq)) {
    log.info({ runDir, seq }, 'batch answered by another provider');
    await change(record.key, (r) => answeredElsewhere(r, deps.now().toISOString()));
    return false;
  }
  const read = await deps.questions.read(runDir, seq);
  if (read.kind === 'missing') {
    log.info({ runDir, seq }, 'question file deleted before it was answered; batch withdrawn');
    await change(record.key, (r) => ended(r, 'withdrawn'));
    return false;
  }
  if (read.kind === 'settling' || read.fingerprint === record.fingerprint) return true;
  if (read.kind === 'valid') {
    log.info({ runDir, seq }, 'question file rewritten; showing the new version');
    await change(record.key, (r) => freshVersion(r, read.fingerprint, 'open'));
  } else {
    log.warn({ runDir, seq, error: read.error }, 'question file rewritten and now malformed');
    await change(record.key, (r) => freshVersion(r, read.fingerprint, 'malformed'));
  }
  return true;
}

/** Publishes a submitting record's answer file; returns true while the record stays active. */
async function settleSubmitting(
  record: BatchRecord,
  listing: QaListing,
  deps: AdvanceRunDeps,
): Promise<boolean> {
  const outcome = await deps.finishSubmit(record);
  if (outcome.kind === 'answered' || outcome.kind === 'answered-elsewhere') {
    listing.answers.add(record.seq);
  }
  return activeRecord(deps.store, record.runDir) !== undefined;
}

/**
 * Opens the record of batch `seq` as read; returns false, opening nothing, when an earlier
 * record of the same file says it must not be asked again (cancelled, or answered).
 */
async function openRecord(
  runDir: string,
  seq: number,
  read: FileRead & { fingerprint: string },
  note: string | undefined,
  deps: AdvanceRunDeps,
): Promise<boolean> {
  const { store, log, node } = deps;
  const key = batchKey(runDir, seq, node);
  const at = deps.now().toISOString();
  const status: BatchStatus = read.kind === 'valid' ? 'open' : 'malformed';
  if (read.kind === 'malformed') {
    log.warn({ runDir, seq, error: read.error }, 'question file is malformed');
  }
  if (note) log.warn({ runDir, seq }, note);
  const previous = store.get(key);
  if (previous?.status === 'cancelled' && previous.fingerprint === read.fingerprint) {
    return false; // cancelled on purpose: no answer file will ever come
  }
  if (
    (previous?.status === 'answered' || previous?.status === 'answered-elsewhere') &&
    previous.fingerprint === read.fingerprint
  ) {
    // Its answer file was removed after it was answered; asking again would answer twice.
    log.warn({ runDir, seq }, 'answer file of an answered batch is gone; not asking again');
    return false;
  }
  // The file store shows a put at once and is not waited for: if the write is lost in a
  // crash, the next start finds the file and opens it again, and waiting for the disk would
  // only delay the message people are waiting for. The Redis store (shared mode) shows a
  // put once Redis has it: waited for, or the display would find nothing to show; while
  // Redis is away the put fails, and so does this sync, which the scheduler tries again.
  const saving = store.put({
    key,
    runDir,
    seq,
    fingerprint: read.fingerprint,
    status,
    drafts: idRecord(),
    createdAt: previous?.createdAt ?? at,
    updatedAt: deps.now().toISOString(),
    ...(node !== undefined ? { node } : {}),
    ...(note ? { note } : {}),
    ...(previous?.presentation ? { presentation: previous.presentation } : {}),
  });
  if (node !== undefined) await saving;
  else
    saving.catch((err: unknown) => log.error({ err, runDir, seq }, 'could not save the new batch'));
  return true;
}
