import * as z from 'zod';
import { quote } from '../protocol/json/describe-value.js';
import { expecting, isRecord } from '../protocol/schema-messages.js';
import type { Envelope } from './envelope.js';
import { OTHER_OPTION } from './other-option.js';

/** A string with something besides spaces in it; `what` says what the field is for. */
const filledString = (key: string, what: string) => {
  const expected = `a non-empty string (${what})`;
  return z
    .string({ error: expecting(key, expected) })
    .refine((text) => text.trim() !== '', { error: expecting(key, expected) });
};

const optionSchema = z.looseObject(
  {
    label: filledString('label', 'the text the user clicks'),
    // the contract fills a missing description with '' and still shows the option
    description: z.string({ error: expecting('description', 'a string') }).default(''),
  },
  { error: expecting('option', 'an object with "label" and "description"') },
);

// Runs even when single options failed (see `when`), so one pass reports every problem.
function checkLabels(options: unknown[], ctx: z.RefinementCtx): void {
  const firstIndex = new Map<string, number>();
  options.forEach((option, index) => {
    if (!isRecord(option) || typeof option.label !== 'string') return;
    const { label } = option;
    const report = (message: string) =>
      ctx.addIssue({ code: 'custom', path: [index, 'label'], input: label, message });
    if (label === OTHER_OPTION) {
      report(`expected a label other than ${quote(OTHER_OPTION)}, which the relay adds itself`);
      return;
    }
    const earlier = firstIndex.get(label);
    if (earlier === undefined) firstIndex.set(label, index);
    else
      report(`expected a unique label, found ${quote(label)} again (same as options[${earlier}])`);
  });
}

const OPTIONS_EXPECTED = 'a non-empty array of {"label", "description"} objects';

const choiceOptions = z
  .array(optionSchema, { error: expecting('options', OPTIONS_EXPECTED) })
  .min(1, { error: expecting('options', OPTIONS_EXPECTED) })
  .superRefine(checkLabels, { when: (payload) => Array.isArray(payload.value) });

const questionSchemaWith = (options: z.ZodType<Envelope['openQuestions'][number]['options']>) =>
  z.looseObject(
    {
      question: filledString('question', 'the question put to the user'),
      header: filledString('header', 'a short label for the question'),
      options,
      multiSelect: z.boolean({ error: expecting('multiSelect', 'true or false') }).optional(),
    },
    { error: expecting('question', 'an object with "question", "header" and "options"') },
  );

const QUESTIONS_EXPECTED = 'a non-empty array of question objects';

const envelopeOf = (question: ReturnType<typeof questionSchemaWith>) =>
  z.looseObject({
    openQuestions: z
      .array(question, { error: expecting('openQuestions', QUESTIONS_EXPECTED) })
      .min(1, {
        error: `expected ${QUESTIONS_EXPECTED}, found an empty array (with nothing to ask, leave the envelope out)`,
      }),
  });

/**
 * The envelope object found in a message; unknown fields are kept at every level. An empty
 * `openQuestions` breaks the contract: with nothing to ask, the envelope is left out.
 */
export const envelopeSchema: z.ZodType<Envelope, unknown> = envelopeOf(
  questionSchemaWith(choiceOptions),
);

/**
 * The questions of the `ask_user` tool, as an envelope: the same rules, except that a question
 * may leave `options` out, to be answered in the person's own words (its `options` are `[]`).
 */
export const askUserEnvelopeSchema: z.ZodType<Envelope, unknown> = envelopeOf(
  questionSchemaWith(choiceOptions.optional().transform((options) => options ?? [])),
);
