import type { webApi } from '@slack/bolt';

type WebClient = webApi.WebClient;

import type { Logger } from 'pino';
import { renderNotice } from '../../core/slack/messages/render-notice.js';
import { escapeMrkdwn } from '../../core/slack/text/escape-mrkdwn.js';

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
