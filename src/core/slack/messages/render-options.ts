import type { ActionsBlockElement, KnownBlock, PlainTextOption } from '@slack/types';
import type { Answer, Question } from '../../protocol/questions/question.js';
import {
  ACTION_KINDS,
  actionId,
  BLOCK_ROLES,
  type QuestionPlace,
  questionBlockId,
} from '../controls/ids.js';
import {
  actionsBlock,
  button,
  mrkdwnContext,
  plainContext,
  plainText,
} from '../layout/block-builders.js';
import { BLOCK_KIT_LIMITS } from '../layout/block-kit-limits.js';
import { escapeMrkdwn } from '../text/escape-mrkdwn.js';
import { truncatePlain } from '../text/text-cut.js';

/** The label of an option as Slack can show it: never empty, at most 75 characters. */
export function optionLabel(text: string): string {
  const visible = text.trim() === '' ? '(blank option)' : text;
  return truncatePlain(visible, BLOCK_KIT_LIMITS.optionText);
}

/** An option object; its value is the option's index, never its text. */
export const optionObject = (text: string, index: number): PlainTextOption => ({
  text: plainText(optionLabel(text), BLOCK_KIT_LIMITS.optionText),
  value: String(index),
});

/** Whether an option's label had to be shortened. */
export const isShortened = (text: string): boolean =>
  optionLabel(text) !== text && text.trim() !== '';

/** Indices of the options a draft selects (first match per drafted string). */
export function draftedIndices(options: readonly string[], draft: Answer | undefined): number[] {
  const wanted = typeof draft === 'string' ? [draft] : Array.isArray(draft) ? draft : [];
  const indices = new Set<number>();
  for (const text of wanted) {
    const index = options.indexOf(text);
    if (index >= 0) indices.add(index);
  }
  return [...indices].sort((a, b) => a - b);
}

/** The element types a choice is shown as, by how many options it has. */
const CHOICE_ELEMENTS = {
  one: {
    few: 'radio_buttons',
    most: BLOCK_KIT_LIMITS.radioOptions,
    select: 'static_select',
    search: 'external_select',
    hint: 'Choose one',
  },
  many: {
    few: 'checkboxes',
    most: BLOCK_KIT_LIMITS.checkboxOptions,
    select: 'multi_static_select',
    search: 'multi_external_select',
    hint: 'Choose any',
  },
} as const;

/**
 * The control of a choice question: radio buttons or checkboxes for a few options, a select
 * for up to 100, a select that searches (type-ahead) beyond that.
 */
function choiceElement(question: Question, selected: PlainTextOption[], qi: number) {
  const many = question.type === 'choose-many';
  const kind = CHOICE_ELEMENTS[many ? 'many' : 'one'];
  const options = (question.options ?? []).map(optionObject);
  const action_id = actionId(many ? ACTION_KINDS.chooseMany : ACTION_KINDS.choose, qi);
  const initial = many
    ? selected.length > 0
      ? { initial_options: selected }
      : {}
    : selected[0]
      ? { initial_option: selected[0] }
      : {};
  if (options.length <= kind.most)
    return { type: kind.few, action_id, options, ...initial } as const;
  const limit = BLOCK_KIT_LIMITS.selectPlaceholder;
  if (options.length <= BLOCK_KIT_LIMITS.selectOptions) {
    const placeholder = plainText(kind.hint, limit);
    return { type: kind.select, action_id, placeholder, options, ...initial } as const;
  }
  const placeholder = plainText(`Type to search ${options.length} options`, limit);
  return { type: kind.search, action_id, placeholder, min_query_length: 0, ...initial } as const;
}

/**
 * The full text of options whose labels were shortened, so none is unreadable: listed under
 * the control when the list fits one context line, otherwise behind a "Show full options"
 * button that opens a modal.
 */
export function fullTextBlocks(place: QuestionPlace, options: readonly string[]): KnownBlock[] {
  const long = options.flatMap((text, index) => (isShortened(text) ? [index] : []));
  if (long.length === 0) return [];
  const lines = long.map((index) => `${index + 1}. ${escapeMrkdwn(options[index] as string)}`);
  const listing = `*Full text:*\n${lines.join('\n')}`;
  if (listing.length <= BLOCK_KIT_LIMITS.text) return [mrkdwnContext(listing)];
  const count = long.length === 1 ? '1 option is' : `${long.length} options are`;
  return [
    plainContext(`${count} longer than the ${BLOCK_KIT_LIMITS.optionText} characters shown.`),
    actionsBlock(
      questionBlockId(place.key, place.revision, place.questionIndex, BLOCK_ROLES.options),
      [button('Show full options', actionId(ACTION_KINDS.showOptions, place.questionIndex))],
    ),
  ];
}

/**
 * A choose-one or choose-many control in an actions block, sized to the option count:
 * radio buttons or checkboxes up to 10, a static select up to 100, an external select beyond
 * (served by `suggestOptions`). Drafts show as the initial selection.
 */
export function renderChoiceControl(
  place: QuestionPlace,
  question: Question,
  draft: Answer | undefined,
): KnownBlock[] {
  const options = question.options ?? [];
  if (options.length === 0) return [plainContext('This question lists no options to choose from.')];
  return [choiceControlBlock(place, question, draft), ...fullTextBlocks(place, options)];
}

/**
 * The actions block holding a choose-one or choose-many control alone, for callers that show
 * the options' full text themselves. The question must have options.
 */
export function choiceControlBlock(
  place: QuestionPlace,
  question: Question,
  draft: Answer | undefined,
): KnownBlock {
  const options = question.options ?? [];
  const selected = draftedIndices(options, draft).map((index) =>
    optionObject(options[index] as string, index),
  );
  const qi = place.questionIndex;
  const element: ActionsBlockElement = choiceElement(question, selected, qi);
  return actionsBlock(questionBlockId(place.key, place.revision, qi), [element]);
}
