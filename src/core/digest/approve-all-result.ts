import { escapeMrkdwn } from '../slack/text/escape-mrkdwn.js';
import { mentionOf } from '../slack/text/mention.js';
import { truncatePlain } from '../slack/text/text-cut.js';

/** A ticked batch Approve all did not answer: whose answer came first, or why not. */
export interface Skipped {
  kind: 'skipped';
  title: string;
  /** who answered it first (a Slack user id) */
  by?: string;
  why?: string;
}

/** Most skipped batches named one by one. */
const NAMED_MOST = 15;

/**
 * What the person who confirmed Approve all is told, in mrkdwn: how many were answered (and,
 * when `held` of them wait for Undo's moment, where Undo is), and each skipped batch by name
 * with whoever answered it first, or why it was left.
 */
export function describeApproveAll(
  answered: readonly string[],
  skipped: readonly Skipped[],
  ticked: number,
  held = 0,
): string {
  if (ticked === 0) return 'Nothing was ticked, so nothing was answered.';
  const undo =
    held > 0
      ? " They reach the agents in a moment; until then Undo, on the digest or on a batch's message, puts one back."
      : '';
  const head = `:white_check_mark: Approve all answered ${answered.length} of the ${ticked} batch${ticked === 1 ? '' : 'es'} ticked.${undo}`;
  if (skipped.length === 0) return head;
  const lines = skipped.slice(0, NAMED_MOST).map((skip) => {
    const name = escapeMrkdwn(truncatePlain(skip.title, 80));
    const why = skip.by
      ? `answered by ${mentionOf(skip.by)} first`
      : escapeMrkdwn(skip.why ?? 'left open');
    return `• *${name}*: ${why}`;
  });
  const more = skipped.length > NAMED_MOST ? `\n…and ${skipped.length - NAMED_MOST} more` : '';
  return `${head}\nSkipped ${skipped.length}:\n${lines.join('\n')}${more}`;
}
