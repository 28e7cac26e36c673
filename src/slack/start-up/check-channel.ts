import type { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { describeSlackError, fixFor } from '../presenting/slack-errors.js';

/**
 * Looks once at start whether the bot can post in the batch channel, so a missing invite is a
 * clear warning at start rather than a retry loop at the first batch. Never throws: posting
 * is retried anyway, and `doctor` gives the full picture.
 */
export async function checkChannel(client: webApi.WebClient, channel: string, log: Logger) {
  try {
    const info = await client.conversations.info({ channel });
    if (info.channel && !info.channel.is_member && !info.channel.is_im) {
      log.warn(
        { channel, name: info.channel.name, fix: fixFor('not_in_channel') },
        'the bot is not in the batch channel; batches cannot be posted until it is invited',
      );
    }
  } catch (err) {
    const code = describeSlackError(err);
    log.warn({ channel, error: code, fix: fixFor(code) }, 'could not look up the batch channel');
  }
}
