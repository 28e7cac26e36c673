import type { KnownBlock } from '@slack/types';
import { notesFor } from '../../protocol/questions/note-options.js';
import { type Question, TYPES_WITH_OPTIONS } from '../../protocol/questions/question.js';
import { ACTION_KINDS, actionId, type QuestionPlace, submitBlockId } from '../controls/ids.js';
import { isOneTapBatch, renderOneTapControl } from '../controls/one-tap.js';
import type { BatchView, EnvelopeView } from '../layout/batch-view.js';
import { isFinalViewState } from '../layout/batch-view.js';
import {
  actionsBlock,
  button,
  mrkdwnContext,
  mrkdwnSection,
  plainContext,
  plainText,
} from '../layout/block-builders.js';
import { BLOCK_KIT_LIMITS } from '../layout/block-kit-limits.js';
import { layoutAt, maxSizes, measureBlocks, subtractSizes } from '../layout/message-budget.js';
import { type Page, packQuestions, type QuestionParts } from '../layout/pack-messages.js';
import { escapeMrkdwn } from '../text/escape-mrkdwn.js';
import { truncatePlain, truncatePlainStart } from '../text/text-cut.js';
import {
  headerBlocks,
  renderEnvelopeFinalQuestion,
  renderEnvelopeOpenQuestion,
} from './render-envelope-question.js';
import { finalStatusLine, finalStatusWord, renderFinalQuestion } from './render-final.js';
import { hasPreview, renderPreview } from './render-preview.js';
import { promptSections } from './render-prompt.js';
import { renderOpenQuestion } from './render-question.js';
import { teamButtons, teamLines } from './render-team.js';

/** A message as `chat.postMessage` / `chat.update` take it. */
export interface SlackMessage {
  /** notification and screen-reader text (mrkdwn, escaped) */
  text: string;
  blocks: KnownBlock[];
}

const RUN_DIR_SHOWN = 500;
const NOTE_SHOWN = 1000;
const ERROR_SHOWN = 1500;
const PROMPT_IN_TEXT = 150;

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

function questionParts(view: BatchView, question: Question, questionIndex: number): QuestionParts {
  const place = { key: view.key, revision: view.revision, questionIndex };
  const draft = view.drafts[question.id];
  if (isFinalViewState(view.state)) {
    const body = view.envelope
      ? envelopeQuestionBlocks(view, view.envelope, question, place)
      : renderFinalQuestion(questionIndex, question, draft, view.seq, noteShown(view, question));
    return { body };
  }
  if (view.envelope) {
    const body = envelopeQuestionBlocks(view, view.envelope, question, place);
    const preview = question.preview;
    // an option's preview (AskUserQuestion's) is shown as its question's
    if (!hasPreview(preview)) return { body };
    return { preview: (room) => renderPreview(place, preview, room), body };
  }
  const body = isOneTap(view)
    ? [
        ...promptSections(questionIndex, question.prompt),
        ...renderOneTapControl(place, question, draft, view.notes?.options[question.id]),
      ]
    : renderOpenQuestion(place, question, draft);
  const preview = question.preview;
  if (!hasPreview(preview)) return { body };
  return { preview: (room) => renderPreview(place, preview, room), body };
}

/** The note given with a question's answer, on a batch answered here. */
function noteShown(view: BatchView, question: Question): string | undefined {
  if (view.state.kind !== 'answered' || !view.notes) return undefined;
  return notesFor([question], view.drafts, view.notes.typed)[question.id];
}

/** An envelope question, open or final; a cancelled batch shows no answers. */
function envelopeQuestionBlocks(
  view: BatchView,
  envelope: EnvelopeView,
  question: Question,
  place: QuestionPlace,
): KnownBlock[] {
  const text = envelope.followUpText[question.id];
  const draft = view.drafts[question.id];
  if (!isFinalViewState(view.state)) {
    // an envelope only asks choices; a file claiming to be one may hold others all the same
    return TYPES_WITH_OPTIONS.includes(question.type)
      ? renderEnvelopeOpenQuestion(place, question, draft, text)
      : [...headerBlocks(question), ...renderOpenQuestion(place, question, draft)];
  }
  const answer = view.state.kind === 'cancelled' ? undefined : draft;
  return renderEnvelopeFinalQuestion(place.questionIndex, question, answer, text, view.seq);
}

/** Envelope batches show every option with its description and may need text: never one-tap. */
const isOneTap = (view: BatchView): boolean => !view.envelope && isOneTapBatch(view.questions);

/** Submit, and on envelope batches Cancel, which asks before it closes the batch. */
function submitButtons(view: BatchView): KnownBlock {
  const submit = button('Submit', actionId(ACTION_KINDS.submit), { primary: true });
  const team = view.team ? teamButtons(view.team) : [];
  if (!view.envelope) {
    return actionsBlock(submitBlockId(view.key, view.revision), [submit, ...team]);
  }
  const cancel = button('Cancel', actionId(ACTION_KINDS.cancel), { value: 'cancel' });
  cancel.style = 'danger';
  cancel.confirm = {
    title: plainText('Cancel these questions?', BLOCK_KIT_LIMITS.confirmTitle),
    text: plainText(
      'The agent gets no answers and is told the questions were cancelled.',
      BLOCK_KIT_LIMITS.confirmText,
    ),
    confirm: plainText('Cancel questions', BLOCK_KIT_LIMITS.confirmButton),
    deny: plainText('Keep answering', BLOCK_KIT_LIMITS.confirmButton),
    style: 'danger',
  };
  return actionsBlock(submitBlockId(view.key, view.revision), [submit, cancel, ...team]);
}

/** What follows the last question: the failure warning and the Submit button, or Undo. */
function footerBlocks(view: BatchView): KnownBlock[] {
  if (view.state.kind === 'held') {
    const undo = button('Undo', actionId(ACTION_KINDS.undo), { value: 'undo' });
    return [actionsBlock(submitBlockId(view.key, view.revision), [undo])];
  }
  if (isFinalViewState(view.state)) return [];
  const oneTap = isOneTap(view);
  const blocks: KnownBlock[] = [];
  if (view.state.kind === 'submit-failed') {
    const error = escapeMrkdwn(truncatePlain(view.state.error, ERROR_SHOWN));
    const retry = oneTap ? 'Tap an answer' : 'Press Submit';
    blocks.push(
      mrkdwnSection(
        `:warning: *The answers could not be saved:* ${error}\nYour answers are kept. ${retry} to try again.`,
      ),
    );
  }
  if (!oneTap) blocks.push(submitButtons(view));
  else if (view.team) {
    // one-tap batches have no Submit block; the team controls take its id
    blocks.push(actionsBlock(submitBlockId(view.key, view.revision), teamButtons(view.team)));
  }
  return blocks;
}

interface FramePlace {
  pageIndex: number;
  pageCount: number;
  /** 1-based numbers of the first and last question on the page */
  first: number;
  last: number;
}

/** Header and context lines that open a message. */
function frameTop(view: BatchView, at: FramePlace): KnownBlock[] {
  const total = view.questions.length;
  const continued = at.pageIndex > 0;
  const title = `${titleOf(view)}${continued ? ' (continued)' : ''}`;
  const blocks: KnownBlock[] = [
    { type: 'header', text: plainText(title, BLOCK_KIT_LIMITS.headerText) },
  ];
  const range = at.first === at.last ? `question ${at.first}` : `questions ${at.first}–${at.last}`;
  if (!continued) {
    const split = at.pageCount > 1 ? ` · ${range} here, the rest in the thread` : '';
    const dir = view.origin
      ? truncatePlain(view.origin.detail, RUN_DIR_SHOWN)
      : truncatePlainStart(view.runDir, RUN_DIR_SHOWN);
    blocks.push(plainContext(`${dir} · ${plural(total, 'question')}${split}`));
  } else {
    const of = `${range.charAt(0).toUpperCase()}${range.slice(1)} of ${total}`;
    blocks.push(plainContext(`${of} · message ${at.pageIndex + 1} of ${at.pageCount}`));
  }
  if (isFinalViewState(view.state)) {
    blocks.push(mrkdwnContext(finalStatusLine(view.state, view.origin?.inTerminal === true)));
  } else if (!continued && view.state.kind === 'open' && view.state.note) {
    blocks.push(mrkdwnContext(escapeMrkdwn(truncatePlain(view.state.note, NOTE_SHOWN))));
  }
  if (!continued) blocks.push(...teamLines(view.team, isFinalViewState(view.state)));
  return blocks;
}

/** The header of a batch's messages; an `ask` folder's name means nothing to people. */
const titleOf = (view: BatchView): string =>
  view.origin?.title ??
  (view.envelope ? 'Questions from an agent' : `Run ${view.runName} · batch ${view.seq}`);

/** The notification text of one message. */
function fallbackText(view: BatchView, at: FramePlace): string {
  const run =
    view.origin?.title ??
    (view.envelope ? 'Questions from an agent' : `Run ${view.runName}, batch ${view.seq}`);
  if (at.pageIndex > 0) {
    return escapeMrkdwn(`${run} (continued, message ${at.pageIndex + 1} of ${at.pageCount})`);
  }
  const state = view.state;
  const prefix = isFinalViewState(state)
    ? `${finalStatusWord(state)}: `
    : state.kind === 'submit-failed'
      ? 'Answers not saved: '
      : '';
  const [first, ...rest] = view.questions;
  const prompt = first
    ? truncatePlain(first.prompt.replace(/\s+/g, ' ').trim(), PROMPT_IN_TEXT)
    : 'no questions';
  const more = rest.length > 0 ? ` (+${plural(rest.length, 'more question')})` : '';
  return escapeMrkdwn(`${prefix}${run}: ${prompt}${more}`);
}

/** The most any message's frame (top lines and footer) can take, reserved on every page. */
function frameReserve(view: BatchView, footer: KnownBlock[]) {
  const worst = view.questions.length || 1;
  const top = (pageIndex: number) =>
    measureBlocks([
      ...frameTop(view, { pageIndex, pageCount: worst + 1, first: worst, last: worst }),
      ...footer,
    ]);
  return maxSizes(top(0), top(1));
}

/**
 * A batch as Slack messages: the first goes to the channel, any others into its thread when one
 * message cannot hold every question. Each stays within Block Kit's limits and the message text
 * budget; the Submit button (open batches that are not one-tap) is in the last message only.
 * `split` counts how often Slack refused a page of this batch as too long: the pages get
 * smaller each time (see `layoutAt`).
 */
export function renderBatchMessages(view: BatchView, split = 0): SlackMessage[] {
  const footer = footerBlocks(view);
  const layout = layoutAt(split);
  const capacity = subtractSizes(layout.budget, frameReserve(view, footer));
  const pages = packQuestions(
    view.questions.map((question, index) => questionParts(view, question, index)),
    capacity,
    layout.alone,
  );
  return pages.map((page: Page, pageIndex) => {
    const at: FramePlace = {
      pageIndex,
      pageCount: pages.length,
      first: (page.questions[0] ?? 0) + 1,
      last: (page.questions[page.questions.length - 1] ?? 0) + 1,
    };
    const last = pageIndex === pages.length - 1;
    return {
      text: fallbackText(view, at),
      blocks: [...frameTop(view, at), ...page.blocks, ...(last ? footer : [])],
    };
  });
}
