import { idRecord, valueFor } from './id-record.js';
import type { Answer, Question } from './question.js';

/**
 * A question field the relay writes on batches it makes itself (a Claude Code permission
 * prompt's Deny): the indices of the options a one-tap question takes only through a form,
 * where the person may add a note the agent reads with the answer. The relay shows such
 * forms, and writes their notes, only on batches it wrote (`writtenByRelay`); in a run folder
 * the field claims nothing.
 */
export const NOTE_OPTIONS_FIELD = 'noteOptions';

/** The options of a choose-one question that its `noteOptions` field names, in option order. */
export function noteOptions(question: Question): string[] {
  const field: unknown = question[NOTE_OPTIONS_FIELD];
  if (question.type !== 'choose-one' || !Array.isArray(field)) return [];
  return (question.options ?? []).filter((_, index) => field.includes(index));
}

/**
 * The notes to write with the answers, by question id: the text typed with each chosen note
 * option, when not blank. Text left from another choice is not the agent's to read.
 */
export function notesFor(
  questions: readonly Question[],
  answers: Readonly<Record<string, Answer>>,
  typed: Readonly<Record<string, string>>,
): Record<string, string> {
  const notes = idRecord<string>();
  for (const question of questions) {
    const answer = valueFor(answers, question.id);
    const text = valueFor(typed, question.id);
    if (typeof answer !== 'string' || text === undefined || text.trim() === '') continue;
    if (noteOptions(question).includes(answer)) notes[question.id] = text;
  }
  return notes;
}
