import type { KnownBlock } from '@slack/types';
import type { AnswerRoute } from '../../batch/batch-record.js';
import type { Answer, Question } from '../../protocol/questions/question.js';
import { answerFileName } from '../../protocol/run-folder.js';
import type { FinalViewState } from '../layout/batch-view.js';
import { mentionOf } from '../text/mention.js';
import { quotedSection } from '../text/quote-text.js';
import { promptSections } from './render-prompt.js';

/** What an empty free-write answer shows: an answer all the same, given on purpose. */
export const EMPTY_ANSWER = '(left empty)';

/** An answer as text for people; `—` when there is none. */
export function answerText(answer: Answer | undefined): string {
  if (answer === undefined) return '—';
  if (typeof answer === 'boolean') return answer ? 'Yes' : 'No';
  if (Array.isArray(answer))
    return answer.length === 0 ? '—' : answer.map((a) => `• ${a}`).join('\n');
  return answer === '' ? EMPTY_ANSWER : answer;
}

/**
 * A question of a finished batch: its prompt and the answer given, with the note typed with
 * it if any, and no controls.
 */
export function renderFinalQuestion(
  questionIndex: number,
  question: Question,
  answer: Answer | undefined,
  seq: number,
  note?: string,
): KnownBlock[] {
  const text = note === undefined ? answerText(answer) : `${answerText(answer)}\nNote: ${note}`;
  return [
    ...promptSections(questionIndex, question.prompt),
    quotedSection('*Answer:*\n', text, `the full answer is in ${answerFileName(seq)}`),
  ];
}

/**
 * A date Slack formats in each reader's own time zone ("today at 5:52 PM"); where a client
 * cannot, it shows the fallback, the time in UTC to the minute (`2026-12-04 17:52 UTC`).
 */
export function slackDate(at: Date): string {
  const ms = at.getTime();
  if (Number.isNaN(ms)) return 'at an unknown time';
  const utc = at.toISOString();
  const fallback = `${utc.slice(0, 10)} ${utc.slice(11, 16)} UTC`;
  return `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} at {time}|${fallback}>`;
}

/** A time of day to the second, in each reader's own time zone (UTC where a client cannot). */
export function slackTime(at: Date): string {
  const ms = at.getTime();
  if (Number.isNaN(ms)) return 'at an unknown time';
  const fallback = `${at.toISOString().slice(11, 19)} UTC`;
  return `at <!date^${Math.floor(ms / 1000)}^{time_secs}|${fallback}>`;
}

/** How a batch answered away from its own message says so on its final line. */
const VIA_TEXT: Readonly<Record<AnswerRoute, string>> = {
  digest: 'via the digest',
  'approve-all': 'with Approve all',
};

/**
 * The mrkdwn line saying how a batch ended. A hook's batch (`fromHook`) is withdrawn when the
 * question went back to the terminal: answered or dismissed there, or not answered in time.
 */
export function finalStatusLine(state: FinalViewState, fromHook = false): string {
  const when = slackDate(state.at);
  switch (state.kind) {
    case 'answered':
      return `Answered by ${mentionOf(state.by)}${state.via ? ` ${VIA_TEXT[state.via]}` : ''} ${when}`;
    case 'held':
      return `Answered by ${mentionOf(state.by)}${state.via ? ` ${VIA_TEXT[state.via]}` : ''} · sent to the agent ${slackTime(state.until)} unless undone`;
    case 'cancelled':
      return `Cancelled by ${mentionOf(state.by)} · ${when}`;
    case 'answered-elsewhere':
      return `Answered in another tool · ${when}`;
    case 'withdrawn':
      return fromHook
        ? `Closed: answered in the terminal, or left to it · ${when}`
        : `Withdrawn by the agent · ${when}`;
    case 'run-removed':
      return `Run folder removed · ${when}`;
  }
}

/** The word the notification text starts with for a finished batch. */
export function finalStatusWord(state: FinalViewState): string {
  switch (state.kind) {
    case 'answered':
    case 'held':
      return 'Answered';
    case 'cancelled':
      return 'Cancelled';
    case 'answered-elsewhere':
      return 'Answered in another tool';
    case 'withdrawn':
      return 'Withdrawn';
    case 'run-removed':
      return 'Run folder removed';
  }
}
