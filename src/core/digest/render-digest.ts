import type { KnownBlock } from '@slack/types';
import { actionId, DIGEST_CONTROLS, digestBlockId } from '../slack/controls/ids.js';
import {
  actionsBlock,
  button,
  mrkdwnContext,
  mrkdwnSection,
} from '../slack/layout/block-builders.js';
import { slackTime } from '../slack/messages/render-final.js';
import { escapeMrkdwn } from '../slack/text/escape-mrkdwn.js';
import { mentionOf } from '../slack/text/mention.js';
import { truncatePlain } from '../slack/text/text-cut.js';
import type { DigestItem } from './digest-item.js';

/**
 * Most lines the digest message shows. A line is two blocks (its text, its buttons) and a
 * message holds at most 50 blocks: 20 lines leave room for the head and the foot.
 */
export const DIGEST_LINES_SHOWN = 20;

/** Longest prompt on a digest line; the batch's own message shows it whole. */
const PROMPT_SHOWN = 150;

/** Block id of the digest's foot (Approve all). */
export const DIGEST_FOOT_BLOCK = 'o7.digest.foot';

/** A digest message: its notification text and its blocks. */
export interface DigestMessage {
  text: string;
  blocks: KnownBlock[];
}

/** "asked 5 minutes ago", in each reader's own time, kept fresh by the client. */
function askedAgo(createdAt: string): string {
  const ms = Date.parse(createdAt);
  if (Number.isNaN(ms)) return 'asked at an unknown time';
  const utc = new Date(ms).toISOString();
  return `asked <!date^${Math.floor(ms / 1000)}^{ago}|${utc.slice(0, 10)} ${utc.slice(11, 16)} UTC>`;
}

/** One line's text: the batch, its question in one line, its age and who it is for. */
export function digestLineText(item: DigestItem): string {
  const head = item.detail
    ? `*${escapeMrkdwn(item.title)}* · ${escapeMrkdwn(truncatePlain(item.detail, 80))}`
    : `*${escapeMrkdwn(item.title)}*${item.seq > 1 ? ` · batch ${item.seq}` : ''}`;
  const prompt = escapeMrkdwn(
    truncatePlain(item.quick.question.prompt.replace(/\s+/g, ' '), PROMPT_SHOWN),
  );
  const preview = item.quick.preview
    ? `\n${item.quick.preview
        .split('\n')
        .map((line) => `> ${escapeMrkdwn(line)}`)
        .join('\n')}`
    : '';
  const who = [
    item.assignee ? `for ${mentionOf(item.assignee)}` : undefined,
    item.claimedBy ? `${mentionOf(item.claimedBy)} is on it` : undefined,
  ].filter((part) => part !== undefined);
  const foot = [askedAgo(item.createdAt), ...who].join(' · ');
  const held = item.held
    ? `\n:hourglass_flowing_sand: *${escapeMrkdwn(item.held.answer)}* from ${mentionOf(item.held.by)} · sent to the agent ${slackTime(new Date(item.held.until))} unless undone`
    : '';
  return `${head}\n${prompt}${preview}\n_${foot}_${held}`;
}

/** How many of `items` Approve all can answer: those waiting that have a default answer. */
export const approvable = (items: readonly DigestItem[]): DigestItem[] =>
  items.filter((item) => item.held === undefined && item.quick.approve !== undefined);

/** A line's buttons: the batch's own answers, or Undo while its answer is held. */
export function lineButtons(item: DigestItem, line: number) {
  if (item.held) return [button('Undo', actionId(DIGEST_CONTROLS.undo, line), { value: 'undo' })];
  return item.quick.choices.map((choice, index) =>
    button(choice.label, actionId(DIGEST_CONTROLS.answer, line, index), { value: String(index) }),
  );
}

/**
 * The digest of a channel's open quick batches, oldest first: a line per batch with that
 * batch's own answer buttons, the oldest {@link DIGEST_LINES_SHOWN} of them when there are
 * more, and Approve all for every batch that has a default answer.
 */
export function renderDigest(items: readonly DigestItem[]): DigestMessage {
  const shown = items.slice(0, DIGEST_LINES_SHOWN);
  const count = items.length;
  const held = items.filter((item) => item.held).length;
  const waiting = count - held;
  const who = waiting === 0 ? 'No agent is' : `${waiting} agent${waiting === 1 ? ' is' : 's are'}`;
  const text =
    `${who} waiting for a quick answer` +
    (held > 0 ? ` (${held} answered, with Undo open for a moment)` : '');
  const blocks: KnownBlock[] = [
    mrkdwnSection(
      `:inbox_tray: *${text}*, oldest first. An answer here shows on the batch's own message too.`,
    ),
  ];
  shown.forEach((item, line) => {
    blocks.push(mrkdwnSection(digestLineText(item)));
    blocks.push(actionsBlock(digestBlockId(item.key, item.revision), lineButtons(item, line)));
  });
  if (count > shown.length) {
    blocks.push(
      mrkdwnContext(
        `Showing the oldest ${shown.length} of ${count}. Show all pages through every one; Approve all lists them too.`,
      ),
    );
  }
  const approve = approvable(items).length;
  const foot = [
    ...(approve > 0
      ? [
          button(`Approve all ${approve}…`, DIGEST_CONTROLS.approveAll, {
            value: String(approve),
            primary: true,
          }),
        ]
      : []),
    // the lines not shown here, page by page in a form
    ...(count > shown.length
      ? [button(`Show all ${count}…`, DIGEST_CONTROLS.showAll, { value: '1' })]
      : []),
  ];
  if (foot.length > 0) blocks.push(actionsBlock(DIGEST_FOOT_BLOCK, foot));
  return { text, blocks };
}
