import type { Envelope, EnvelopeQuestion } from './envelope.js';
import { askedQuestions } from './envelope.js';
import { asksForFollowUpText } from './follow-up-hint.js';
import { OTHER_DESCRIPTION, OTHER_OPTION } from './other-option.js';

/** Marks a q-out batch as made from an envelope, in its top-level `source` field. */
export const ENVELOPE_BATCH_SOURCE = 'agent-open-questions';

/** The id of the envelope question at `index` (0-based) in its batch: `q1`, `q2`, … */
export const questionIdAt = (index: number): string => `q${index + 1}`;

/**
 * One batch question made from an envelope question. The extra fields are allowed by the
 * Q&A protocol (unknown fields are kept and echoed) and tell the relay what to show.
 */
export interface EnvelopeBatchQuestion {
  id: string;
  type: 'choose-one' | 'choose-many';
  prompt: string;
  /** The agent's labels in order, then {@link OTHER_OPTION}. */
  options: string[];
  header: string;
  /** Parallel to `options`: the agent's descriptions in full, then {@link OTHER_DESCRIPTION}. */
  optionDescriptions: string[];
  /** Always true: the last option is {@link OTHER_OPTION} and asks for the user's own words. */
  allowOther: true;
  /** Indices into `options` whose description promises a plain-text follow-up question. */
  followUps: number[];
}

/** The `q-out-NNN.json` content made from an envelope. */
export interface EnvelopeBatchFile {
  seq: number;
  source: typeof ENVELOPE_BATCH_SOURCE;
  questions: EnvelopeBatchQuestion[];
}

/**
 * Turns an envelope into the q-out batch the relay shows: its first four questions, each a
 * choose-one (choose-many when `multiSelect`) with an {@link OTHER_OPTION} option last.
 */
export function envelopeToBatch(envelope: Envelope, seq = 1): EnvelopeBatchFile {
  const questions = askedQuestions(envelope).map(choiceQuestionOf);
  return { seq, source: ENVELOPE_BATCH_SOURCE, questions };
}

/** The batch question made from envelope question `index` (0-based): see {@link envelopeToBatch}. */
export function choiceQuestionOf(question: EnvelopeQuestion, index: number): EnvelopeBatchQuestion {
  return {
    id: questionIdAt(index),
    type: question.multiSelect === true ? 'choose-many' : 'choose-one',
    prompt: question.question,
    options: [...question.options.map((option) => option.label), OTHER_OPTION],
    header: question.header,
    optionDescriptions: [
      ...question.options.map((option) => option.description),
      OTHER_DESCRIPTION,
    ],
    allowOther: true,
    followUps: question.options.flatMap((option, at) =>
      asksForFollowUpText(option.description) ? [at] : [],
    ),
  };
}
