import type { KnownBlock } from '@slack/types';
import type { Question } from '../protocol/question.js';
import type { BatchView } from './batch-view.js';
import { isFinalViewState } from './batch-view.js';
import {
  actionsBlock,
  button,
  mrkdwnContext,
  mrkdwnSection,
  plainContext,
  plainText,
} from './block-builders.js';
import { BLOCK_KIT_LIMITS } from './block-kit-limits.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { ACTION_KINDS, actionId, submitBlockId } from './ids.js';
import { MESSAGE_BUDGET, maxSizes, measureBlocks, subtractSizes } from './message-budget.js';
import { isOneTapBatch, renderOneTapControl } from './one-tap.js';
import { type Page, packQuestions, type QuestionParts } from './pack-messages.js';
import { finalStatusLine, finalStatusWord, renderFinalQuestion } from './render-final.js';
import { hasPreview, renderPreview } from './render-preview.js';
import { promptSections } from './render-prompt.js';
import { renderOpenQuestion } from './render-question.js';
import { truncatePlain, truncatePlainStart } from './text-cut.js';

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
    return { body: renderFinalQuestion(questionIndex, question, draft, view.seq) };
  }
  const body = isOneTapBatch(view.questions)
    ? [
        ...promptSections(questionIndex, question.prompt),
        ...renderOneTapControl(place, question, draft),
      ]
    : renderOpenQuestion(place, question, draft);
  const preview = question.preview;
  if (!hasPreview(preview)) return { body };
  return { preview: (room) => renderPreview(place, preview, room), body };
}

/** What follows the last question: the failure warning and the Submit button. */
function footerBlocks(view: BatchView): KnownBlock[] {
  if (isFinalViewState(view.state)) return [];
  const oneTap = isOneTapBatch(view.questions);
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
  if (!oneTap) {
    blocks.push(
      actionsBlock(submitBlockId(view.key, view.revision), [
        button('Submit', actionId(ACTION_KINDS.submit), { primary: true }),
      ]),
    );
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
  const title = `Run ${view.runName} · batch ${view.seq}${continued ? ' (continued)' : ''}`;
  const blocks: KnownBlock[] = [
    { type: 'header', text: plainText(title, BLOCK_KIT_LIMITS.headerText) },
  ];
  const range = at.first === at.last ? `question ${at.first}` : `questions ${at.first}–${at.last}`;
  if (!continued) {
    const split = at.pageCount > 1 ? ` · ${range} here, the rest in the thread` : '';
    const dir = truncatePlainStart(view.runDir, RUN_DIR_SHOWN);
    blocks.push(plainContext(`${dir} · ${plural(total, 'question')}${split}`));
  } else {
    const of = `${range.charAt(0).toUpperCase()}${range.slice(1)} of ${total}`;
    blocks.push(plainContext(`${of} · message ${at.pageIndex + 1} of ${at.pageCount}`));
  }
  if (isFinalViewState(view.state)) {
    blocks.push(mrkdwnContext(finalStatusLine(view.state)));
  } else if (!continued && view.state.kind === 'open' && view.state.note) {
    blocks.push(mrkdwnContext(escapeMrkdwn(truncatePlain(view.state.note, NOTE_SHOWN))));
  }
  return blocks;
}

/** The notification text of one message. */
function fallbackText(view: BatchView, at: FramePlace): string {
  const run = `Run ${view.runName}, batch ${view.seq}`;
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
 */
export function renderBatchMessages(view: BatchView): SlackMessage[] {
  const footer = footerBlocks(view);
  const capacity = subtractSizes(MESSAGE_BUDGET, frameReserve(view, footer));
  const pages = packQuestions(
    view.questions.map((question, index) => questionParts(view, question, index)),
    capacity,
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
