import type { KnownBlock } from '@slack/types';
import type { Answer, Question } from '../../protocol/questions/question.js';
import { actionsBlock, button } from '../layout/block-builders.js';
import { BLOCK_KIT_LIMITS } from '../layout/block-kit-limits.js';
import { ACTION_KINDS, actionId, type QuestionPlace, questionBlockId } from './ids.js';

/** Most answer buttons a one-tap batch shows; more would crowd a phone screen. */
export const ONE_TAP_MAX_OPTIONS = 5;

/**
 * Whether a batch is answered by a single tap: one yes-no question, or one choose-one question
 * with at most 5 options that each fit on a button uncut.
 */
export function isOneTapBatch(questions: readonly Question[]): boolean {
  if (questions.length !== 1) return false;
  const [question] = questions as [Question];
  if (question.type === 'yes-no') return true;
  if (question.type !== 'choose-one') return false;
  const options = question.options ?? [];
  return (
    options.length >= 1 &&
    options.length <= ONE_TAP_MAX_OPTIONS &&
    options.every((text) => text.trim() !== '' && text.length <= BLOCK_KIT_LIMITS.buttonText)
  );
}

/**
 * One button per answer in a single actions block; tapping one submits the batch, except an
 * answer that takes a note (`notes`): its button, marked with an ellipsis as Slack's buttons
 * that ask for more are, opens the note's form, and submitting that answers. A drafted answer
 * (left from a failed submit) is primary and ticked.
 */
export function renderOneTapControl(
  place: QuestionPlace,
  question: Question,
  draft: Answer | undefined,
  notes: readonly string[] = [],
): KnownBlock[] {
  const qi = place.questionIndex;
  const tap = (label: string, value: string, chosen: boolean) => {
    const note = question.type === 'choose-one' && notes.includes(label);
    const shown = note ? `${label}…` : label;
    const kind = note ? ACTION_KINDS.note : ACTION_KINDS.oneTap;
    return button(chosen ? `✓ ${shown}` : shown, actionId(kind, qi, value), {
      value,
      primary: chosen,
    });
  };
  const elements =
    question.type === 'yes-no'
      ? [tap('Yes', 'yes', draft === true), tap('No', 'no', draft === false)]
      : (question.options ?? []).map((text, index) => tap(text, String(index), draft === text));
  return [actionsBlock(questionBlockId(place.key, place.revision, qi), elements)];
}
