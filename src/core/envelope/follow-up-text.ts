import { z } from 'zod';
import type { ProtocolProblem } from '../protocol/protocol-error.js';
import { idRecord, idRecordSchema } from '../protocol/questions/id-record.js';
import type { AnswerFile } from '../protocol/questions/question.js';
import { expecting, problemsFromZod } from '../protocol/schema-messages.js';
import { err, ok, type Result } from '../result.js';

/**
 * Text the user typed, by question id: for the `Other…` option or for an option that
 * promises a plain-text follow-up. The relay writes it as an extra top-level field of the
 * q-answers file, since the answer itself must be one of the options.
 */
export type FollowUpText = Record<string, string>;

/** The extra top-level field the relay adds to a q-answers file made for an envelope. */
export interface EnvelopeAnswerExtras {
  followUpText?: FollowUpText;
}

/** `followUpText`: an object of strings keyed by question id. */
export const followUpTextSchema = idRecordSchema(
  z.string({ error: expecting('followUpText', 'a string (the text the user typed)') }),
  (input) => expecting('followUpText', 'an object of strings keyed by question id')({ input }),
);

const extrasSchema = z.looseObject(
  { followUpText: followUpTextSchema.optional() },
  { error: expecting('file', 'a JSON object') },
);

/**
 * Reads `followUpText` from a q-answers file's top-level object; a file without it has no
 * typed text. Problems carry JSON paths such as `followUpText.q2`.
 */
export function readFollowUpText(answerFile: unknown): Result<FollowUpText, ProtocolProblem[]> {
  const parsed = extrasSchema.safeParse(answerFile);
  if (!parsed.success) return err(problemsFromZod(parsed.error));
  return ok(parsed.data.followUpText ?? idRecord());
}

/** The choose answers of an answer file by question id, the shape the resume message takes. */
export function answersById(file: AnswerFile): Record<string, string | string[]> {
  const answers = idRecord<string | string[]>();
  for (const entry of file.answers) {
    if (typeof entry.answer !== 'boolean') answers[entry.id] = entry.answer;
  }
  return answers;
}
