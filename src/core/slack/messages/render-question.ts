import type { KnownBlock } from '@slack/types';
import type { Answer, Question } from '../../protocol/questions/question.js';
import { ACTION_KINDS, actionId, type QuestionPlace, questionBlockId } from '../controls/ids.js';
import { actionsBlock, button } from '../layout/block-builders.js';
import { quotedSection } from '../text/quote-text.js';
import { answerText } from './render-final.js';
import { renderChoiceControl } from './render-options.js';
import { promptSections } from './render-prompt.js';

/** Yes and No buttons; the drafted one is primary and ticked. */
function yesNoControl(place: QuestionPlace, draft: Answer | undefined): KnownBlock[] {
  const qi = place.questionIndex;
  const choice = (label: string, value: 'yes' | 'no', chosen: boolean) =>
    button(chosen ? `✓ ${label}` : label, actionId(ACTION_KINDS.yesNo, qi, value), {
      value,
      primary: chosen,
    });
  return [
    actionsBlock(questionBlockId(place.key, place.revision, qi), [
      choice('Yes', 'yes', draft === true),
      choice('No', 'no', draft === false),
    ]),
  ];
}

/** The free-write draft (if any, an empty one said so) and a button that opens the modal. */
function freeWriteControl(place: QuestionPlace, draft: Answer | undefined): KnownBlock[] {
  const drafted = typeof draft === 'string';
  const blocks: KnownBlock[] = drafted
    ? [quotedSection('*Your answer so far:*\n', answerText(draft), 'the full text is kept')]
    : [];
  blocks.push(
    actionsBlock(questionBlockId(place.key, place.revision, place.questionIndex), [
      button(
        drafted ? 'Edit answer' : 'Write answer',
        actionId(ACTION_KINDS.freeWrite, place.questionIndex),
      ),
    ]),
  );
  return blocks;
}

/**
 * One question of an open batch without its preview: the prompt, then its control in an
 * actions block (input blocks are unreliable in messages on mobile).
 */
export function renderOpenQuestion(
  place: QuestionPlace,
  question: Question,
  draft: Answer | undefined,
): KnownBlock[] {
  const prompt = promptSections(place.questionIndex, question.prompt);
  switch (question.type) {
    case 'choose-one':
    case 'choose-many':
      return [...prompt, ...renderChoiceControl(place, question, draft)];
    case 'yes-no':
      return [...prompt, ...yesNoControl(place, draft)];
    case 'free-write':
      return [...prompt, ...freeWriteControl(place, draft)];
  }
}
