import type { webApi } from '@slack/bolt';

type WebClient = webApi.WebClient;

import type { Logger } from 'pino';
import { replyThreadTs } from '../../core/slack/layout/reply-thread.js';
import { renderNotice } from '../../core/slack/messages/render-notice.js';
import { escapeMrkdwn } from '../../core/slack/text/escape-mrkdwn.js';

/** Where a person acted: enough to answer them privately. */
export interface ActionPlace {
  user: string;
  channel: string | undefined;
  threadTs?: string | undefined;
}

/** Where the person behind a click acted: its user, conversation and thread. */
export function placeOfAction(body: {
  user: { id: string };
  channel?: { id?: string } | undefined;
  container?: { channel_id?: string } | undefined;
  message?: Parameters<typeof replyThreadTs>[0];
}): ActionPlace {
  return {
    user: body.user.id,
    channel: body.channel?.id ?? body.container?.channel_id,
    threadTs: replyThreadTs(body.message),
  };
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
