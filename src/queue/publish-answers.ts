import path from 'node:path';
import type { Logger } from 'pino';
import { answered, answeredElsewhere, writeFailed } from '../core/batch/batch-changes.js';
import type { BatchRecord, BatchStatus } from '../core/batch/batch-record.js';
import type { SubmitOutcome } from '../core/batch/outcomes.js';
import { followUpTextFor, isEnvelopeBatch } from '../core/envelope/envelope-batch.js';
import type { EnvelopeAnswerExtras } from '../core/envelope/follow-up-text.js';
import {
  buildAnswerFile,
  serializeAnswerFile,
} from '../core/protocol/answers/build-answer-file.js';
import { notesFor } from '../core/protocol/questions/note-options.js';
import type { AnswerFile, QuestionBatch } from '../core/protocol/questions/question.js';
import { answerFileName, qaDirOf } from '../core/protocol/run-folder.js';
import type { publishFileNoClobber } from '../fs/publish-file.js';
import type { RecordChange } from '../store/state-store.js';
import { type QuestionReader, readTextQuietly } from './runs/question-reader.js';

export interface PublishAnswersDeps {
  questions: Pick<QuestionReader, 'batchOf'>;
  publish: typeof publishFileNoClobber;
  /** Changes a stored record, stamped with the time (see `stampedChange`). */
  change: RecordChange;
  log: Logger;
}

/**
 * Publishes the answer file of a `submitting` record, or learns that someone else did. Safe
 * to run again after a crash: an answer file already there with our content is ours.
 */
export async function publishAnswers(
  record: BatchRecord,
  deps: PublishAnswersDeps,
): Promise<SubmitOutcome> {
  const { change, log } = deps;
  const dir = qaDirOf(record.runDir);
  const name = answerFileName(record.seq);
  const batch = await deps.questions.batchOf(record);
  const built = batch ? buildAnswerFile(batch, record.drafts) : undefined;
  if (!batch || !built?.ok) {
    // The questions changed or vanished under a crash: nothing valid to publish. If the
    // answer file is there, it is ours from before the crash.
    const published = (await readTextQuietly(path.join(dir, name))) !== undefined;
    const status: BatchStatus = published ? 'answered' : batch ? 'open' : 'withdrawn';
    const reopened = (await change(record.key, (r) => ({ ...r, status }))) ?? record;
    return { kind: 'closed', status: reopened.status };
  }
  const content = serializeAnswerFile(withEnvelopeExtras(batch, built.value as AnswerFile, record));
  let outcome: 'published' | 'exists';
  try {
    outcome = await deps.publish(dir, name, content);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    log.error({ err, runDir: record.runDir, seq: record.seq }, 'could not write answer file');
    await change(record.key, (r) => writeFailed(r, message));
    return { kind: 'write-failed', message };
  }
  if (outcome === 'exists' && (await readTextQuietly(path.join(dir, name))) === content) {
    outcome = 'published'; // our own write from before a crash
  }
  if (outcome === 'published') {
    // operators get one line per answered batch, with its latency (src/ops/observe-batches)
    log.debug({ runDir: record.runDir, seq: record.seq, by: record.answeredBy }, 'answers written');
    const done = (await change(record.key, answered)) ?? answered(record);
    return { kind: 'answered', record: done };
  }
  log.info({ runDir: record.runDir, seq: record.seq }, 'another provider answered first');
  const done =
    (await change(record.key, (r) => answeredElsewhere(r, r.updatedAt))) ??
    answeredElsewhere(record, record.updatedAt);
  return { kind: 'answered-elsewhere', record: done };
}

/**
 * Envelope batches carry the text people typed (`followUpText`) and who submitted
 * (`answeredBy`) in extra top-level fields; another batch the relay wrote carries the notes
 * given with one-tap answers (`followUpText` too), when there are any. Any other answer
 * file keeps exactly the protocol's shape.
 */
function withEnvelopeExtras(
  batch: QuestionBatch,
  file: AnswerFile,
  record: BatchRecord,
): AnswerFile & EnvelopeAnswerExtras {
  const typed = record.followUps ?? {};
  if (!isEnvelopeBatch(batch)) {
    const notes = batch.writtenByRelay ? notesFor(batch.questions, record.drafts, typed) : {};
    return Object.keys(notes).length > 0 ? { ...file, followUpText: notes } : file;
  }
  const followUpText = followUpTextFor(batch.questions, record.drafts, typed);
  return { ...file, followUpText, ...(record.answeredBy ? { answeredBy: record.answeredBy } : {}) };
}
