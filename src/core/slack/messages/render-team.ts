import type { Button, KnownBlock } from '@slack/types';
import { SNOOZE_MS } from '../../batch/batch-changes.js';
import type { HandOff } from '../../batch/batch-record.js';
import { ACTION_KINDS, CLAIM_VALUES } from '../controls/ids.js';
import type { TeamView } from '../layout/batch-view.js';
import { button, mrkdwnContext } from '../layout/block-builders.js';
import { escapeMrkdwn } from '../text/escape-mrkdwn.js';
import { mentionOf } from '../text/mention.js';
import { cutEscaped } from '../text/text-cut.js';
import { slackDate } from './render-final.js';

/** How much of a hand-off note the message's chain shows; the thread reply has all of it. */
const NOTE_IN_CHAIN = 300;
/** Context blocks hold at most 3000 characters of text. */
const CHAIN_SHOWN = 2900;

/** One hand-off as a line of mrkdwn: who, to whom, when, and the (escaped) note. */
function handOffLine(handOff: HandOff, noteMax = NOTE_IN_CHAIN): string {
  const note = handOff.note ? `: “${escapedNote(handOff.note, noteMax)}”` : '';
  const failed = handOff.undelivered
    ? ` (not delivered: ${escapeMrkdwn(handOff.undelivered)})`
    : '';
  return `${mentionOf(handOff.from)} handed this to ${mentionOf(handOff.to)} ${slackDate(new Date(handOff.at))}${failed}${note}`;
}

/** What people are told of a hand-off whose copy could not reach the person. */
function undeliveredLine(handOff: HandOff): string {
  return `:warning: The hand-off to ${mentionOf(handOff.to)} could not reach them (Slack said ${escapeMrkdwn(handOff.undelivered ?? 'no')}), so it ended: anyone here can answer this batch, or hand it to someone else.`;
}

/** The thread reply saying that a hand-off could not reach the person it was for. */
export function renderUndeliveredNotice(handOff: HandOff): { text: string; blocks: KnownBlock[] } {
  const line = undeliveredLine(handOff);
  return { text: line, blocks: [mrkdwnContext(line)] };
}

/** A note escaped for mrkdwn in at most `max` characters, with `…` when cut. */
function escapedNote(note: string, max: number): string {
  const cut = cutEscaped(note, max - 1);
  return cut.kept < note.length ? `${cut.text}…` : cut.text;
}

/** The thread reply announcing a hand-off; the note is shown whole. */
export function renderHandOffNotice(handOff: HandOff): { text: string; blocks: KnownBlock[] } {
  // a context text holds 3000 characters; the mentions and date take well under 400
  const line = `:arrow_right: ${handOffLine(handOff, 2500)}`;
  return { text: line, blocks: [mrkdwnContext(line)] };
}

/**
 * Context lines for the top of a batch message: on an open batch the assignee, who is on it
 * and, once reminders have started, when the next one comes; on a finished one the whole
 * hand-off chain.
 */
export function teamLines(team: TeamView | undefined, final: boolean): KnownBlock[] {
  if (!team) return [];
  const handoffs = team.handoffs ?? [];
  if (final) {
    if (handoffs.length === 0) return [];
    const chain = handoffs.map((h) => handOffLine(h)).join('\n');
    return [mrkdwnContext(cutLines(`Hand-offs:\n${chain}`))];
  }
  const parts: string[] = [];
  const last = handoffs[handoffs.length - 1];
  if (last?.undelivered) parts.push(undeliveredLine(last));
  if (team.assignee) {
    const by = last ? ` (handed off by ${mentionOf(last.from)})` : '';
    parts.push(`Assigned to ${mentionOf(team.assignee)}${by}`);
  }
  if (team.claimedBy) parts.push(`:raising_hand: ${mentionOf(team.claimedBy)} is on it`);
  const next = nextReminder(team);
  if (next) parts.push(`:alarm_clock: Next reminder ${slackDate(next)}`);
  return parts.length > 0 ? [mrkdwnContext(parts.join(' · '))] : [];
}

/** When the next reminder comes, once one was sent (before that, none is shown). */
function nextReminder(team: TeamView): Date | undefined {
  return team.reminders && team.nextReminderAt ? new Date(team.nextReminderAt) : undefined;
}

const SNOOZE_HOURS = SNOOZE_MS / 3_600_000;

/**
 * "I'm on it" (or "Release" once someone is on it) and "Hand off", for an open batch; and
 * "Snooze" beside the next reminder's line while it shows.
 */
export function teamButtons(team: TeamView): Button[] {
  const claim = team.claimedBy
    ? button('Release', ACTION_KINDS.claim, { value: CLAIM_VALUES.release })
    : button("I'm on it", ACTION_KINDS.claim, { value: CLAIM_VALUES.claim });
  const buttons = [claim, button('Hand off', ACTION_KINDS.handOff, { value: 'hand-off' })];
  if (!nextReminder(team)) return buttons;
  return [...buttons, button(`Snooze ${SNOOZE_HOURS} h`, ACTION_KINDS.snooze, { value: 'snooze' })];
}

/** What the person who pressed Snooze is told (plain text: the message shows the time). */
export const SNOOZED = `:alarm_clock: The next reminder comes no sooner than ${SNOOZE_HOURS} h from now; the message says when.`;

/** What a press of a Snooze button is told once no reminder is due any more. */
export const NOTHING_TO_SNOOZE =
  'No reminder is due for this batch any more, so there is nothing to snooze.';

/** Cuts whole lines off the end so the text fits a context block, saying how many were left out. */
function cutLines(text: string): string {
  if (text.length <= CHAIN_SHOWN) return text;
  const lines = text.split('\n');
  while (lines.length > 1 && lines.join('\n').length > CHAIN_SHOWN - 40) lines.pop();
  const left = text.split('\n').length - lines.length;
  return `${lines.join('\n')}\n… and ${left} more`;
}
