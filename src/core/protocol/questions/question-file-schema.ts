import * as z from 'zod';
import { describeValue, listChoices, quote } from '../json/describe-value.js';
import { formatCount, QA_LIMITS, QUESTION_ID, QUESTION_ID_RULE } from '../qa-limits.js';
import { expecting, isRecord } from '../schema-messages.js';
import {
  PREVIEW_TYPES,
  QUESTION_TYPES,
  type QuestionType,
  TYPES_WITH_OPTIONS,
} from './question.js';
import { checkUniqueIds } from './unique-ids.js';

const ONE_OF_TYPES = `one of ${listChoices(QUESTION_TYPES)}`;

/** A string with something in it besides spaces; `key` names the field when it is missing. */
export const nonEmptyString = (key: string) =>
  z
    .string({ error: expecting(key, 'a non-empty string') })
    .refine((text) => text.trim() !== '', { error: expecting(key, 'a non-empty string') });

/** `found 12,345 characters`, for a text over its limit. */
const tooLong =
  (what: string, limit: number, hint = '') =>
  (issue: { input?: unknown }) =>
    `expected ${what} of at most ${formatCount(limit)} characters${hint}, found ${formatCount(String(issue.input).length)}`;

/** A non-empty string of at most `limit` characters. */
const boundedString = (key: string, what: string, limit: number, hint = '') =>
  nonEmptyString(key).refine((text) => text.length <= limit, {
    error: tooLong(what, limit, hint),
  });

/** A question's id: see `QUESTION_ID`. */
const questionIdSchema = z
  .string({ error: expecting('id', QUESTION_ID_RULE) })
  .refine((id) => id.length <= QA_LIMITS.idLength && QUESTION_ID.test(id), {
    error: expecting('id', QUESTION_ID_RULE),
  });

/** `seq`: the batch number, a positive integer (its match with the file name is checked by the caller). */
export const seqSchema = z
  .number({ error: expecting('seq', 'a positive integer') })
  .int({ error: expecting('seq', 'a positive integer') })
  .positive({ error: expecting('seq', 'a positive integer') });

/** One of the four question kinds. */
export const questionTypeSchema = z.enum(QUESTION_TYPES, {
  error: expecting('type', ONE_OF_TYPES),
});

const previewSchema = z.looseObject(
  {
    type: z.enum(PREVIEW_TYPES, { error: expecting('type', '"markdown" or "ascii"') }),
    content: z
      .string({ error: expecting('content', 'a string') })
      .refine((text) => text.length <= QA_LIMITS.previewLength, {
        error: tooLong('a preview', QA_LIMITS.previewLength),
      }),
  },
  {
    error: expecting(
      'preview',
      'an object with "type" ("markdown" or "ascii") and "content" (a string)',
    ),
  },
);

/** One of the four question kinds, for checks on data zod has not finished with. */
export const isQuestionType = (value: unknown): value is QuestionType =>
  (QUESTION_TYPES as readonly unknown[]).includes(value);

// Runs even when other fields failed (see `when`), so one pass reports every problem.
function checkOptionsFitType(question: unknown, ctx: z.RefinementCtx): void {
  if (!isRecord(question)) return;
  const { type, options } = question;
  const report = (path: PropertyKey[], message: string) =>
    ctx.addIssue({ code: 'custom', path, message, input: options });
  if (isQuestionType(type) && !TYPES_WITH_OPTIONS.includes(type)) {
    if (Array.isArray(options) && options.length > 0) {
      const expected = `no options for a ${type} question (omit "options" or leave it empty)`;
      report(['options'], `expected ${expected}, found ${describeValue(options)}`);
    }
    return;
  }
  // choose-one, choose-many, or a type too broken to tell: options should still be sound
  const wanted = `a non-empty array of option strings for a ${type} question`;
  if (isQuestionType(type) && options === undefined) {
    report(['options'], `"options" is missing; expected ${wanted}`);
    return;
  }
  if (!Array.isArray(options)) return;
  if (isQuestionType(type) && options.length === 0) {
    report(['options'], `expected ${wanted}, found an empty array`);
    return;
  }
  const firstIndex = new Map<unknown, number>();
  options.forEach((option, index) => {
    if (typeof option !== 'string') return;
    const earlier = firstIndex.get(option);
    if (earlier === undefined) firstIndex.set(option, index);
    else {
      const message = `expected a unique option, found ${quote(option)} again (same as options[${earlier}])`;
      report(['options', index], message);
    }
  });
}

/** One question; unknown fields are kept. */
export const questionSchema = z
  .looseObject(
    {
      id: questionIdSchema,
      type: questionTypeSchema,
      prompt: boundedString(
        'prompt',
        'a prompt',
        QA_LIMITS.promptLength,
        ' (longer context belongs in "preview")',
      ),
      options: z
        .array(boundedString('option', 'an option', QA_LIMITS.optionLength), {
          error: expecting('options', 'an array of option strings'),
        })
        .max(QA_LIMITS.options, {
          error: (issue) =>
            `expected at most ${QA_LIMITS.options} options, found ${formatCount((issue.input as unknown[]).length)}`,
        })
        .optional(),
      preview: previewSchema.optional(),
    },
    { error: expecting('question', 'a question object with "id", "type" and "prompt"') },
  )
  .superRefine(checkOptionsFitType, { when: (payload) => isRecord(payload.value) });

const QUESTIONS_EXPECTED = 'a non-empty array of question objects';

/** Characters of a question's prompt, options and preview, as far as they are strings. */
function textOf(question: unknown): number {
  if (!isRecord(question)) return 0;
  const { prompt, options, preview } = question;
  let length = typeof prompt === 'string' ? prompt.length : 0;
  if (Array.isArray(options)) {
    for (const option of options) if (typeof option === 'string') length += option.length;
  }
  if (isRecord(preview) && typeof preview.content === 'string') length += preview.content.length;
  return length;
}

// A batch of many long questions would be a stream of Slack messages; the count alone is
// reported when that is over too.
function checkBatchText(questions: unknown[], ctx: z.RefinementCtx): void {
  if (questions.length > QA_LIMITS.questions) return;
  const total = questions.reduce((sum: number, question) => sum + textOf(question), 0);
  if (total <= QA_LIMITS.batchText) return;
  ctx.addIssue({
    code: 'custom',
    path: [],
    input: questions,
    message: `expected at most ${formatCount(QA_LIMITS.batchText)} characters of prompts, options and previews in one batch, found ${formatCount(total)}; split the questions into several batches`,
  });
}

/** The shape of a `q-out-NNN.json` file; unknown fields are kept at every level. */
export const questionFileSchema = z.looseObject(
  {
    seq: seqSchema,
    questions: z
      .array(questionSchema, { error: expecting('questions', QUESTIONS_EXPECTED) })
      .min(1, { error: expecting('questions', QUESTIONS_EXPECTED) })
      .max(QA_LIMITS.questions, {
        error: (issue) =>
          `expected at most ${QA_LIMITS.questions} questions, found ${formatCount((issue.input as unknown[]).length)}; split them into several batches (q-out-001.json, q-out-002.json, …)`,
      })
      .superRefine(checkUniqueIds('questions'), {
        when: (payload) => Array.isArray(payload.value),
      })
      .superRefine(checkBatchText, { when: (payload) => Array.isArray(payload.value) }),
  },
  { error: expecting('file', 'a JSON object with "seq" and "questions"') },
);
