import type { webApi } from '@slack/bolt';
import type { BatchRecord } from '../../core/batch/batch-record.js';
import { renderNotice } from '../../core/slack/messages/render-notice.js';
import { escapeMrkdwn } from '../../core/slack/text/escape-mrkdwn.js';
import { readPresentation } from './slack-presentation.js';

/** What everyone sees under a batch whose answers wait for its machine's relay. */
export function waitingNoteText(node: string, how: 'offline' | 'slow'): string {
  const state =
    how === 'offline' ? 'whose relay is not running right now' : 'whose relay has not answered yet';
  return `This batch's run is on ${node}, ${state}. The answers submitted are kept, and will be written to the run as soon as that relay takes them.`;
}

/**
 * Shared mode: says in the batch message's thread that its answers wait for the machine
 * holding the run (whose relay would otherwise update the message itself).
 */
export function createWaitingNotePoster(client: webApi.WebClient) {
  return async (record: BatchRecord, node: string, how: 'offline' | 'slow'): Promise<void> => {
    const shown = readPresentation(record.presentation);
    if (!shown) return;
    const text = waitingNoteText(node, how);
    await client.chat.postMessage({
      channel: shown.channel,
      thread_ts: shown.ts,
      text: escapeMrkdwn(text),
      blocks: renderNotice(text),
      unfurl_links: false,
      unfurl_media: false,
    });
  };
}
