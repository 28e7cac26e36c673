import type { webApi } from '@slack/bolt';
import type { BatchRecord } from '../../core/batch/batch-record.js';
import { renderReminder } from '../../core/slack/messages/render-reminder.js';
import { PresentUnavailable } from '../../queue/presenter.js';
import { unavailableOr } from './slack-errors.js';
import { readPresentation } from './slack-presentation.js';

type WebClient = webApi.WebClient;

/**
 * Posts a reminder in the thread of a batch's channel message, mentioning its assignee, else
 * whoever is on it. Throws when the batch has no message yet, so the reminder is kept for later.
 */
export function createReminderPoster(client: WebClient) {
  return async (record: BatchRecord, count: number, limit: number): Promise<void> => {
    const shown = readPresentation(record.presentation);
    if (!shown) {
      throw new PresentUnavailable(`batch ${record.seq} of ${record.runDir} has no message yet`);
    }
    const who = record.assignee ?? record.claimedBy;
    const message = renderReminder({
      count,
      limit,
      askedAt: new Date(record.createdAt),
      ...(who ? { who } : {}),
    });
    await client.chat
      .postMessage({
        channel: shown.channel,
        thread_ts: shown.ts,
        text: message.text,
        blocks: message.blocks as never,
      })
      .catch((err: unknown) => {
        throw unavailableOr(err, `the reminder for batch ${record.seq}`);
      });
  };
}
