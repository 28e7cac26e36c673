import { holding, submitting, withFollowUp } from '../../core/batch/batch-changes.js';
import type { BatchRecord } from '../../core/batch/batch-record.js';
import type { SubmitOutcome } from '../../core/batch/outcomes.js';
import { refusalFor } from '../../core/batch/refusal.js';
import { isEnvelopeBatch, questionsMissingText } from '../../core/envelope/envelope-batch.js';
import { buildAnswerFile } from '../../core/protocol/answers/build-answer-file.js';
import { idRecord, valueFor } from '../../core/protocol/questions/id-record.js';
import type { QuestionBatch } from '../../core/protocol/questions/question.js';
import type { QuestionReader } from '../runs/question-reader.js';
import { otherOwner } from '../runs/run-owners.js';
import type { RunScheduler } from '../runs/run-scheduler.js';
import type { SubmitInput } from './action-inputs.js';
import type { OwnBatchWorkDeps } from './open-batch-changes.js';

/** What {@link submitBatch} needs. */
export interface SubmitBatchDeps extends OwnBatchWorkDeps {
  scheduler: Pick<RunScheduler, 'schedule'>;
  questions: Pick<QuestionReader, 'read'>;
  /** Publishes the answer file of a `submitting` record. */
  finishSubmit: (record: BatchRecord) => Promise<SubmitOutcome>;
  /**
   * How long a decision is held before its answer file is written (Undo meanwhile puts the
   * batch back), in ms; 0 or absent: written at once.
   */
  holdFor?: (input: SubmitInput) => number;
  /** Looks at the run again at `at`: when a held decision is due. */
  wakeAt?: (runDir: string, at: Date) => void;
}

/**
 * Submits the batch `key`: validates its drafts, publishes the answer file, then shows the
 * result. The drafts are the truth: `unsaved` (choices a person's screen reports with Submit)
 * only fills questions that have no draft, while `tapped` (a one-tap answer) is the person's
 * answer itself. With an undo window (`holdFor`), the decision is stored as `held` and its
 * answer file written once the window ends (`advanceRun`), unless Undo puts it back first. A batch of another machine is submitted by its own relay, asked through
 * `owners`.
 */
export async function submitBatch(
  key: string,
  input: SubmitInput,
  deps: SubmitBatchDeps,
): Promise<SubmitOutcome> {
  const known = deps.store.get(key);
  const owner = known && otherOwner(deps.owners, known);
  if (known && owner) {
    const refusal = refusalFor(known, { revision: input.revision, also: 'submitting' });
    return refusal ?? owner.submit(known, input);
  }
  const outcome = await deps.open.onOwn(key, input.revision, (open, runDir) =>
    submitOwn(open, runDir, input, deps),
  );
  // whatever happened, look at the run again: its next batch, or a rewritten file
  const runDir = deps.store.get(key)?.runDir;
  if (runDir) deps.scheduler.schedule(runDir);
  return outcome;
}

/** Submit on a batch of this relay, under its run's lock. */
async function submitOwn(
  open: BatchRecord,
  runDir: string,
  input: SubmitInput,
  deps: SubmitBatchDeps,
): Promise<SubmitOutcome> {
  // Read the file again: the agent may have rewritten it since the last event arrived.
  const read = await deps.questions.read(runDir, open.seq);
  if (read.kind !== 'valid' || read.fingerprint !== open.fingerprint) {
    return { kind: 'out-of-date' };
  }
  let outcome: SubmitOutcome | undefined;
  const now = deps.now();
  const at = now.toISOString();
  const holdMs = deps.holdFor?.(input) ?? 0;
  const until = holdMs > 0 ? new Date(now.getTime() + holdMs) : undefined;
  // decided on the record as it is now: a choice another relay saved a moment ago counts
  const sent = await deps.change(open.key, (current) => {
    const refusal = refusalFor(current, { revision: input.revision });
    const decided = refusal ?? submission(current, read.batch, input);
    if ('drafts' in decided) {
      outcome = undefined;
      const sending = submitting(current, decided.drafts, input.by, at, input.via);
      // a tap answers with the note typed in its form, or with none
      const { tapped } = input;
      const made = tapped ? withFollowUp(sending, tapped.questionId, tapped.note ?? '') : sending;
      return until ? holding(made, current, until.toISOString()) : made;
    }
    outcome = decided;
    return undefined;
  });
  if (outcome) return outcome;
  if (!sent) return { kind: 'unknown' };
  if (until && sent.status === 'held') {
    deps.wakeAt?.(runDir, until);
    await deps.show(runDir);
    return { kind: 'held', record: sent };
  }
  const result = await deps.finishSubmit(sent);
  await deps.show(runDir);
  return result;
}

/**
 * The answers Submit sends for `current` (its drafts, filled from what the screen reported,
 * and a tapped answer as it is), or why it cannot send them yet.
 */
function submission(
  current: BatchRecord,
  batch: QuestionBatch,
  input: SubmitInput,
):
  | { drafts: BatchRecord['drafts'] }
  | Extract<SubmitOutcome, { kind: 'incomplete' | 'needs-text' }> {
  // the drafts win over what a screen reports; a tapped answer is the answer itself
  const drafts = idRecord([
    ...(input.unsaved ?? []),
    ...Object.entries(current.drafts),
    ...(input.tapped ? [[input.tapped.questionId, input.tapped.answer] as const] : []),
  ]);
  const built = buildAnswerFile(batch, drafts);
  if (!built.ok) {
    const missing = batch.questions
      .filter((q) => valueFor(drafts, q.id) === undefined)
      .map((q) => q.id);
    return { kind: 'incomplete', missing, problems: built.error.map((p) => p.message) };
  }
  const texts = current.followUps ?? idRecord();
  const needText = isEnvelopeBatch(batch)
    ? questionsMissingText(batch.questions, drafts, texts)
    : [];
  return needText.length > 0 ? { kind: 'needs-text', questionIds: needText } : { drafts };
}
