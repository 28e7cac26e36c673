import * as z from 'zod';
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

/**
 * The extra top-level fields the relay adds to a q-answers file made for an envelope (a batch
 * it wrote itself): the text people typed, and who submitted it (a Slack user id), so that
 * whoever asked learns it from the answer file alone, in shared mode too.
 */
export interface EnvelopeAnswerExtras {
  followUpText?: FollowUpText;
  answeredBy?: string;
}

/** `followUpText`: an object of strings keyed by question id. */
export const followUpTextSchema = idRecordSchema(
  z.string({ error: expecting('followUpText', 'a string (the text the user typed)') }),
  (input) => expecting('followUpText', 'an object of strings keyed by question id')({ input }),
);

const extrasSchema = z.looseObject(
  {
    followUpText: followUpTextSchema.optional(),
    answeredBy: z
      .string({ error: expecting('answeredBy', 'a string (the Slack user who submitted)') })
      .optional(),
  },
  { error: expecting('file', 'a JSON object') },
);

/** What {@link readEnvelopeExtras} finds: typed text always (maybe none), who answered if said. */
export interface ReadExtras {
  followUpText: FollowUpText;
  answeredBy?: string;
}

/**
 * Reads the relay's extra fields from a q-answers file's top-level object; a file without
 * `followUpText` has no typed text. Problems carry JSON paths such as `followUpText.q2`.
 */
export function readEnvelopeExtras(answerFile: unknown): Result<ReadExtras, ProtocolProblem[]> {
  const parsed = extrasSchema.safeParse(answerFile);
  if (!parsed.success) return err(problemsFromZod(parsed.error));
  const { followUpText, answeredBy } = parsed.data;
  return ok({ followUpText: followUpText ?? idRecord(), ...(answeredBy ? { answeredBy } : {}) });
}

/** The choose answers of an answer file by question id, the shape the resume message takes. */
export function answersById(file: AnswerFile): Record<string, string | string[]> {
  const answers = idRecord<string | string[]>();
  for (const entry of file.answers) {
    if (typeof entry.answer !== 'boolean') answers[entry.id] = entry.answer;
  }
  return answers;
}
