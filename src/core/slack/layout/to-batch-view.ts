import path from 'node:path';
import { revisionOf } from '../../batch/batch-key.js';
import type { BatchRecord } from '../../batch/batch-record.js';
import { isEnvelopeBatch } from '../../envelope/envelope-batch.js';
import { readOrigin } from '../../protocol/questions/batch-origin.js';
import { idRecord } from '../../protocol/questions/id-record.js';
import { noteOptions } from '../../protocol/questions/note-options.js';
import type { Answer, QuestionBatch } from '../../protocol/questions/question.js';
import type { BatchView } from './batch-view.js';

/** What a view needs besides the record. */
export interface ViewContext {
  /** The questions, when the question file is readable and valid. */
  batch?: QuestionBatch | undefined;
  /** The answers another provider wrote, when the record is `answered-elsewhere` and they parse. */
  answersElsewhere?: Record<string, Answer> | undefined;
}

/** Maps a stored record onto what the renderer draws. */
export function toBatchView(record: BatchRecord, ctx: ViewContext): BatchView {
  const at = new Date(record.answeredAt ?? record.updatedAt);
  const state = ((): BatchView['state'] => {
    switch (record.status) {
      case 'answered':
        return {
          kind: 'answered',
          by: record.answeredBy ?? 'unknown',
          at,
          ...(record.answeredVia ? { via: record.answeredVia } : {}),
        };
      case 'held':
        return {
          kind: 'held',
          by: record.answeredBy ?? 'unknown',
          at,
          until: new Date(record.held?.until ?? at),
          ...(record.answeredVia ? { via: record.answeredVia } : {}),
        };
      case 'answered-elsewhere':
        return { kind: 'answered-elsewhere', at };
      case 'withdrawn':
        return { kind: 'withdrawn', at };
      case 'run-removed':
        return { kind: 'run-removed', at };
      case 'cancelled':
        return { kind: 'cancelled', by: record.answeredBy ?? 'unknown', at };
      default:
        if (record.problem) return { kind: 'submit-failed', error: record.problem };
        return record.note ? { kind: 'open', note: record.note } : { kind: 'open' };
    }
  })();
  const envelope =
    ctx.batch && isEnvelopeBatch(ctx.batch)
      ? { followUpText: record.followUps ?? idRecord<string>() }
      : undefined;
  const origin = ctx.batch && readOrigin(ctx.batch);
  const notes = ctx.batch?.writtenByRelay ? notesView(ctx.batch, record) : undefined;
  return {
    ...(envelope ? { envelope } : {}),
    ...(origin ? { origin } : {}),
    ...(notes ? { notes } : {}),
    key: record.key,
    revision: revisionOf(record.fingerprint),
    runName: path.basename(record.runDir),
    runDir: record.runDir,
    seq: record.seq,
    questions: ctx.batch?.questions ?? [],
    // Choices made here were not what the agent got when another tool answered first.
    drafts: shownAnswers(record, ctx),
    state,
    team: record,
  };
}

/**
 * The answers a message shows. Choices made in Slack are not what the agent got when another
 * tool answered first, and are no answer at all when the batch was withdrawn, cancelled or its
 * run removed.
 */
function shownAnswers(record: BatchRecord, ctx: ViewContext): BatchRecord['drafts'] {
  switch (record.status) {
    case 'answered-elsewhere':
      return ctx.answersElsewhere ?? idRecord();
    case 'withdrawn':
    case 'run-removed':
    case 'cancelled':
      return idRecord();
    default:
      return record.drafts;
  }
}

/** The note options of a batch the relay wrote, and the notes typed; none when it has none. */
function notesView(batch: QuestionBatch, record: BatchRecord): BatchView['notes'] {
  const options = idRecord(
    batch.questions.map((question) => [question.id, noteOptions(question)] as const),
  );
  if (!Object.values(options).some((labels) => labels.length > 0)) return undefined;
  return { options, typed: record.followUps ?? idRecord<string>() };
}
