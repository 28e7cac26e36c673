import type { KnownBlock } from '@slack/types';
import { mrkdwnSection } from '../layout/block-builders.js';
import { mentionOf } from '../text/mention.js';
import { slackDate } from './render-final.js';

/** What a reminder says and to whom. */
export interface ReminderView {
  /** 1 for the first reminder */
  count: number;
  /** the most reminders a batch gets */
  limit: number;
  /** when the batch was first shown */
  askedAt: Date;
  /** the assignee, else the claimer; nobody is mentioned when absent */
  who?: string;
}

/** The thread reply reminding people that a batch is still unanswered. */
export function renderReminder(view: ReminderView): { text: string; blocks: KnownBlock[] } {
  const ask = view.who
    ? `${mentionOf(view.who)}, could you answer them, or hand them off?`
    : "Press *I'm on it* if you are answering them, or *Hand off* to ask someone.";
  const last = view.count >= view.limit ? ' This is the last reminder.' : '';
  const text = `:alarm_clock: These questions are still waiting for an answer (asked ${slackDate(view.askedAt)}). ${ask}${last}`;
  return { text, blocks: [mrkdwnSection(text)] };
}
