import type { KnownBlock, SectionBlock } from '@slack/types';
import { envelopeExtras, picksWantingText } from '../../envelope/envelope-batch.js';
import { OTHER_OPTION } from '../../envelope/other-option.js';
import type { Answer, Question } from '../../protocol/questions/question.js';
import { answerFileName } from '../../protocol/run-folder.js';
import {
  ACTION_KINDS,
  actionId,
  BLOCK_ROLES,
  type QuestionPlace,
  questionBlockId,
} from '../controls/ids.js';
import { actionsBlock, button, mrkdwnContext, mrkdwnSection } from '../layout/block-builders.js';
import { BLOCK_KIT_LIMITS } from '../layout/block-kit-limits.js';
import { escapeMrkdwn } from '../text/escape-mrkdwn.js';
import { quotedSection } from '../text/quote-text.js';
import { splitEscaped, truncatePlain } from '../text/text-cut.js';
import { answerText } from './render-final.js';
import { choiceControlBlock } from './render-options.js';
import { promptSections } from './render-prompt.js';

const HEADER_SHOWN = 150;
const SECTION_MAX = BLOCK_KIT_LIMITS.sectionText;

/** Escaped text in bold, unless a `*` inside would break the bold markers. */
function bold(raw: string): string {
  const escaped = escapeMrkdwn(raw.replace(/\s+/g, ' ').trim());
  return escaped === '' || escaped.includes('*') ? escaped : `*${escaped}*`;
}

/** The question's header as a short bold label above it; nothing when it has none. */
export function headerBlocks(question: Question): KnownBlock[] {
  const { header } = envelopeExtras(question);
  if (header.trim() === '') return [];
  return [mrkdwnContext(bold(truncatePlain(header, HEADER_SHOWN)))];
}

/**
 * Every option with its description in full, one per line (`*label* — description`), in as
 * many sections as the text needs. The agent's labels are shown exactly as written, so a
 * "(Recommended)" marker stays where the agent put it.
 */
function optionListSections(question: Question): SectionBlock[] {
  const options = question.options ?? [];
  const { descriptions } = envelopeExtras(question);
  const lines = options.flatMap((label, index) => {
    const description = (descriptions[index] ?? '').trim();
    const line = description === '' ? bold(label) : `${bold(label)} — ${escapeMrkdwn(description)}`;
    if (line.length <= SECTION_MAX) return [line];
    // too long for one section: plain, split between words, nothing dropped
    return splitEscaped(`${label} — ${description}`, SECTION_MAX);
  });
  const sections: string[] = [];
  for (const line of lines) {
    const last = sections.length - 1;
    const joined = last >= 0 ? `${sections[last]}\n${line}` : line;
    if (last >= 0 && joined.length <= SECTION_MAX) sections[last] = joined;
    else sections.push(line);
  }
  return sections.map((text) => mrkdwnSection(text));
}

/** What the text box is called: the person's own answer for `Other…`, else a follow-up. */
export const textHeading = (picks: readonly string[]): string =>
  picks.includes(OTHER_OPTION) ? 'Your answer' : 'Your follow-up';

/**
 * Under a choice that asks for typed text: the text so far with an Edit button, or a line
 * saying text is needed with an Add button. Nothing when the current choice asks for none.
 */
function textArea(
  place: QuestionPlace,
  question: Question,
  draft: Answer | undefined,
  text: string | undefined,
): KnownBlock[] {
  const picks = picksWantingText(question, draft);
  if (picks.length === 0) return [];
  const blockId = questionBlockId(place.key, place.revision, place.questionIndex, BLOCK_ROLES.text);
  const id = actionId(ACTION_KINDS.followUp, place.questionIndex);
  if (text !== undefined && text.trim() !== '') {
    return [
      quotedSection(`*${textHeading(picks)}:*\n`, text, 'the full text is kept'),
      actionsBlock(blockId, [button('Edit text', id)]),
    ];
  }
  const names = picks.map(bold).join(' and ');
  const verb = picks.length === 1 ? 'asks' : 'ask';
  return [
    mrkdwnContext(`:pencil2: ${names} ${verb} for a few words from you: press *Add text*.`),
    actionsBlock(blockId, [button('Add text', id, { primary: true })]),
  ];
}

/**
 * One open question of an envelope batch: its header as a label, the question, every option
 * with its full description, the choice control, and the text its choice asks for.
 */
export function renderEnvelopeOpenQuestion(
  place: QuestionPlace,
  question: Question,
  draft: Answer | undefined,
  text: string | undefined,
): KnownBlock[] {
  return [
    ...headerBlocks(question),
    ...promptSections(place.questionIndex, question.prompt),
    ...optionListSections(question),
    choiceControlBlock(place, question, draft),
    ...textArea(place, question, draft, text),
  ];
}

/**
 * A question of a finished envelope batch: header, question, the answer given and the text
 * typed for it, with no controls. `answer` is undefined when nothing was answered (cancelled).
 */
export function renderEnvelopeFinalQuestion(
  questionIndex: number,
  question: Question,
  answer: Answer | undefined,
  text: string | undefined,
  seq: number,
): KnownBlock[] {
  const whereFull = `the full answer is in ${answerFileName(seq)}`;
  const picks = picksWantingText(question, answer);
  const typed =
    picks.length > 0 && text !== undefined && text.trim() !== ''
      ? [quotedSection(`*${textHeading(picks)}:*\n`, text, whereFull)]
      : [];
  return [
    ...headerBlocks(question),
    ...promptSections(questionIndex, question.prompt),
    quotedSection('*Answer:*\n', answerText(answer), whereFull),
    ...typed,
  ];
}
