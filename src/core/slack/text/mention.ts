import {
  SLACK_BOT_ID,
  SLACK_CHANNEL_ID,
  SLACK_GROUP_ID,
  SLACK_USER_ID,
} from '../controls/slack-id-shapes.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';

/** A user or user group id as a mention Slack shows as a name; anything else as escaped text. */
export function mentionOf(id: string): string {
  if (SLACK_USER_ID.test(id) || SLACK_BOT_ID.test(id)) return `<@${id}>`;
  if (SLACK_GROUP_ID.test(id)) return `<!subteam^${id}>`;
  return escapeMrkdwn(id);
}

/** A channel id as a link Slack shows as the channel's name; anything else as escaped text. */
export function channelMentionOf(id: string): string {
  return SLACK_CHANNEL_ID.test(id) ? `<#${id}>` : escapeMrkdwn(id);
}
