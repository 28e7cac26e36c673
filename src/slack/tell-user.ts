import type { webApi } from '@slack/bolt';

type WebClient = webApi.WebClient;

import type { Logger } from 'pino';
import type { BatchRecord } from '../core/batch/batch-record.js';
import { revisionOf } from '../core/slack/batch-view.js';
import { escapeMrkdwn } from '../core/slack/escape-mrkdwn.js';
import { renderNotice } from '../core/slack/render-notice.js';

/** Where a person acted: enough to answer them privately. */
export interface ActionPlace {
  user: string;
  channel: string | undefined;
  threadTs?: string | undefined;
}

/**
 * Tells one person something only they see (an ephemeral message) in the conversation where
 * they acted. `text` is plain (it may quote agent text) and is escaped for Slack here. Failing
 * to tell is logged, never thrown: the action itself already happened.
 */
export async function tellUser(
  client: WebClient,
  log: Logger,
  place: ActionPlace,
  text: string,
): Promise<void> {
  if (!place.channel) {
    // agent text stays in a field: in the message it could forge log lines with newlines
    log.warn({ user: place.user, text }, 'could not tell user (no channel)');
    return;
  }
  try {
    const blocks = renderNotice(text);
    await client.chat.postEphemeral({
      channel: place.channel,
      user: place.user,
      text: escapeMrkdwn(text),
      blocks,
      ...(place.threadTs ? { thread_ts: place.threadTs } : {}),
    });
  } catch (err) {
    log.warn({ err, user: place.user, channel: place.channel }, 'could not send ephemeral notice');
  }
}

/** Why an action on a batch must change nothing. */
export type Refusal =
  | { kind: 'closed'; status: string }
  | { kind: 'out-of-date' }
  | { kind: 'unknown' };

/**
 * Why an action on this record (shown at `revision`) must change nothing, or undefined when it
 * may go ahead. A batch being submitted right now may go ahead when `passSubmitting`: the
 * queue waits for that submission and then reports the real outcome.
 */
export function refusalFor(
  record: BatchRecord | undefined,
  revision: string | undefined,
  opts: { passSubmitting?: boolean } = {},
): Refusal | undefined {
  if (!record || revision === undefined) return { kind: 'unknown' };
  const open = record.status === 'open' || (opts.passSubmitting && record.status === 'submitting');
  if (!open) return { kind: 'closed', status: record.status };
  if (revisionOf(record.fingerprint) !== revision) return { kind: 'out-of-date' };
  return undefined;
}

/** Why an action changed nothing, in words for the person who tried it. */
export function explainRefusal(outcome: Refusal): string {
  switch (outcome.kind) {
    case 'unknown':
      return 'The relay no longer tracks this batch, so nothing was changed.';
    case 'out-of-date':
      return 'The agent changed this batch after this message was posted. Nothing was changed; use the updated message.';
    case 'closed':
      return CLOSED_TEXT[outcome.status] ?? `This batch is ${outcome.status}; nothing was changed.`;
  }
}

const CLOSED_TEXT: Record<string, string> = {
  answered: 'This batch is already answered; nothing was changed.',
  'answered-elsewhere': 'This batch was already answered in another tool; nothing was changed.',
  withdrawn: 'The agent withdrew this batch; nothing was changed.',
  'run-removed': "This batch's run folder was removed; nothing was changed.",
  submitting: 'The answers are being written right now; nothing was changed.',
  malformed: 'The question file is malformed; fix it first. Nothing was changed.',
  cancelled: 'These questions were cancelled; nothing was changed.',
};
