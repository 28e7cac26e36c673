import { idRecord, valueFor } from '../protocol/questions/id-record.js';
import type { Answer, Question, QuestionBatch } from '../protocol/questions/question.js';
import { ENVELOPE_BATCH_SOURCE } from './envelope-to-batch.js';
import type { FollowUpText } from './follow-up-text.js';
import { OTHER_OPTION } from './other-option.js';

/**
 * Whether a q-out batch was made from an envelope by `ask`: its top-level `source` says so,
 * and the relay wrote it. Any agent could write that `source`; in a run folder it claims
 * nothing (the batch is an ordinary one), or Cancel would end it without an answer file.
 */
export const isEnvelopeBatch = (batch: QuestionBatch): boolean =>
  batch.writtenByRelay === true && claimsEnvelopeSource(batch.source);

/** Whether a q-out file's top-level object says it was made from an envelope. */
export const claimsEnvelopeSource = (source: Record<string, unknown>): boolean =>
  source.source === ENVELOPE_BATCH_SOURCE;

/** What the relay shows and checks for one question of an envelope batch. */
export interface EnvelopeQuestionExtras {
  /** The short label shown above the question; `''` when the file has none. */
  header: string;
  /** Parallel to the question's options: each one's description, `''` where there is none. */
  descriptions: string[];
  /** The options whose choice asks the person for typed text, in option order. */
  textOptions: string[];
}

/**
 * Reads the extra fields `envelopeToBatch` adds to a question. They come from a file anyone
 * could have written, so each is read defensively: a field of the wrong shape counts as absent.
 */
export function envelopeExtras(question: Question): EnvelopeQuestionExtras {
  const options = question.options ?? [];
  const header = typeof question.header === 'string' ? question.header : '';
  const given: unknown[] = Array.isArray(question.optionDescriptions)
    ? question.optionDescriptions
    : [];
  const descriptions = options.map((_, index) => {
    const description = given[index];
    return typeof description === 'string' ? description : '';
  });
  const followUps: unknown[] = Array.isArray(question.followUps) ? question.followUps : [];
  const wanting = new Set<string>();
  for (const index of followUps) {
    const option = typeof index === 'number' ? options[index] : undefined;
    if (option !== undefined) wanting.add(option);
  }
  if (question.allowOther === true && options.includes(OTHER_OPTION)) wanting.add(OTHER_OPTION);
  return { header, descriptions, textOptions: options.filter((option) => wanting.has(option)) };
}

/** The picks of an answer that ask for typed text (`Other…` or a promised follow-up). */
export function picksWantingText(question: Question, answer: Answer | undefined): string[] {
  const picks = typeof answer === 'string' ? [answer] : Array.isArray(answer) ? answer : [];
  return envelopeExtras(question).textOptions.filter((option) => picks.includes(option));
}

const hasText = (text: string | undefined): text is string =>
  text !== undefined && text.trim() !== '';

/**
 * Ids of the questions, in order, whose current picks ask for typed text that is still
 * missing (absent or only spaces): such a batch is not ready to submit.
 */
export function questionsMissingText(
  questions: readonly Question[],
  drafts: Readonly<Record<string, Answer>>,
  texts: Readonly<Record<string, string>>,
): string[] {
  return questions
    .filter((question) => picksWantingText(question, valueFor(drafts, question.id)).length > 0)
    .filter((question) => !hasText(valueFor(texts, question.id)))
    .map((question) => question.id);
}

/**
 * The `followUpText` field of the answer file: the typed text of each question whose picks
 * ask for it. Text typed for a pick the person later changed is left out, so the agent never
 * reads words meant for another choice.
 */
export function followUpTextFor(
  questions: readonly Question[],
  drafts: Readonly<Record<string, Answer>>,
  texts: Readonly<Record<string, string>>,
): FollowUpText {
  const wanted: FollowUpText = idRecord();
  for (const question of questions) {
    const text = valueFor(texts, question.id);
    if (hasText(text) && picksWantingText(question, valueFor(drafts, question.id)).length > 0) {
      wanted[question.id] = text;
    }
  }
  return wanted;
}
