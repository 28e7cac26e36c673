import { askedQuestions, type Envelope } from '../envelope/envelope.js';
import { questionIdAt } from '../envelope/envelope-to-batch.js';
import type { FollowUpText } from '../envelope/follow-up-text.js';
import { OTHER_OPTION } from '../envelope/other-option.js';
import { idRecord } from '../protocol/questions/id-record.js';

/**
 * `ask_user`'s structured result: each asked question's answer keyed by the question's text,
 * as AskUserQuestion's `answers` are. A choose-one gives its label, a multi-select its labels
 * in option order; "Other…" gives the text typed instead of its label, and a question without
 * options the text written for it. Text typed for an option that promised a follow-up goes in
 * `followUps`, under the same key.
 */
export interface UserAnswers {
  answers: Record<string, string | string[]>;
  followUps: Record<string, string>;
}

/** The answers of an envelope batch, by question text (see {@link UserAnswers}). */
export function userAnswers(
  envelope: Envelope,
  answers: Readonly<Record<string, string | string[]>>,
  typed: Readonly<FollowUpText>,
): UserAnswers {
  // keyed by the agent's question text: records without a prototype, so any text is a key
  const result: UserAnswers = { answers: idRecord(), followUps: idRecord() };
  askedQuestions(envelope).forEach((question, index) => {
    const id = questionIdAt(index);
    const answer = Object.hasOwn(answers, id) ? answers[id] : undefined;
    if (answer === undefined) return;
    const key = question.question;
    if (question.options.length === 0) {
      result.answers[key] = [answer].flat().join(', ');
      return;
    }
    const text = Object.hasOwn(typed, id) ? typed[id] : undefined;
    const labels = question.options.map((option) => option.label);
    const picks = Array.isArray(answer) ? answer : [answer];
    const chosen = labels.filter((label) => picks.includes(label));
    const other = picks.includes(OTHER_OPTION) ? [text ?? ''] : [];
    result.answers[key] =
      question.multiSelect === true ? [...chosen, ...other] : (other[0] ?? chosen[0] ?? '');
    if (other.length === 0 && text !== undefined && text.trim() !== '')
      result.followUps[key] = text;
  });
  return result;
}
