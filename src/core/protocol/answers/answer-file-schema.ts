import * as z from 'zod';
import type { Answer } from '../questions/question.js';
import {
  isQuestionType,
  nonEmptyString,
  questionTypeSchema,
  seqSchema,
} from '../questions/question-file-schema.js';
import { checkUniqueIds } from '../questions/unique-ids.js';
import { expecting, isRecord } from '../schema-messages.js';
import { answerMismatch, expectedAnswer, repeatedPick } from './answer-rules.js';

// Runs even when other fields failed (see `when`), so one pass reports every problem.
function checkAnswerFitsType(entry: unknown, ctx: z.RefinementCtx): void {
  if (!isRecord(entry) || !isQuestionType(entry.type)) return;
  const options = Array.isArray(entry.options)
    ? entry.options.filter((option): option is string => typeof option === 'string')
    : undefined;
  const mismatch =
    entry.answer === undefined
      ? `"answer" is missing; expected ${expectedAnswer(entry.type, options)}`
      : (answerMismatch(entry.type, options, entry.answer) ??
        repeatedPick(entry.type, entry.answer));
  if (mismatch !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['answer'], input: entry.answer, message: mismatch });
  }
}

/** One entry of `answers`: the question's fields echoed, plus the answer. */
export const answerEntrySchema = z
  .looseObject(
    {
      id: nonEmptyString('id'),
      type: questionTypeSchema,
      prompt: z.string({ error: expecting('prompt', 'a string (the question text, echoed)') }),
      options: z
        .array(z.string({ error: expecting('option', 'a string') }), {
          error: expecting('options', 'an array of option strings'),
        })
        .optional(),
      // checked against `type` below, where the message can say what this question needs
      answer: z.unknown().optional(),
    },
    { error: expecting('answer', 'an answer object with "id", "type", "prompt" and "answer"') },
  )
  .superRefine(checkAnswerFitsType, { when: (payload) => isRecord(payload.value) })
  // only reached when checkAnswerFitsType passed, so the answer is present and typed
  .transform((entry) => entry as typeof entry & { answer: Answer });

const ANSWERS_EXPECTED = 'a non-empty array of answer objects, one per question';

/** The shape of a `q-answers-NNN.json` file; unknown fields are kept. */
export const answerFileSchema = z.looseObject(
  {
    seq: seqSchema,
    answers: z
      .array(answerEntrySchema, { error: expecting('answers', ANSWERS_EXPECTED) })
      .min(1, { error: expecting('answers', ANSWERS_EXPECTED) })
      .superRefine(checkUniqueIds('answers'), { when: (payload) => Array.isArray(payload.value) }),
    questions: z.array(z.unknown(), {
      error: expecting('questions', 'an array of the original question objects'),
    }),
  },
  { error: expecting('file', 'a JSON object with "seq", "answers" and "questions"') },
);
