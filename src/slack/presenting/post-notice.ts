import type { webApi } from '@slack/bolt';
import { renderNotice } from '../../core/slack/messages/render-notice.js';
import { escapeMrkdwn } from '../../core/slack/text/escape-mrkdwn.js';
import { truncatePlain } from '../../core/slack/text/text-cut.js';

/** The notification text of a notice: its first line, which says what it is about. */
const NOTIFICATION_SHOWN = 300;

/**
 * Posts notices about the watched folders (odd file names, unreadable folders) to the
 * channel of the folder they are `about`, as plain text escaped for mrkdwn: paths and names
 * come from the file system.
 */
export function createNoticePoster(
  client: webApi.WebClient,
  channelFor: (place: string) => string,
) {
  return async (text: string, about: string): Promise<void> => {
    const firstLine = text.split('\n')[0] ?? text;
    await client.chat.postMessage({
      channel: channelFor(about),
      text: escapeMrkdwn(truncatePlain(firstLine, NOTIFICATION_SHOWN)),
      blocks: renderNotice(text),
      unfurl_links: false,
      unfurl_media: false,
    });
  };
}
