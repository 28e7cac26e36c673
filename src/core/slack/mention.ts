import { escapeMrkdwn } from './escape-mrkdwn.js';

// Slack ids: users (U/W), bots (B), user groups (S). Anything else is shown as text.
const USER_ID = /^[UWB][A-Z0-9]{2,30}$/;
const GROUP_ID = /^S[A-Z0-9]{2,30}$/;

/** A user or user group id as a mention Slack shows as a name; anything else as escaped text. */
export function mentionOf(id: string): string {
  if (USER_ID.test(id)) return `<@${id}>`;
  if (GROUP_ID.test(id)) return `<!subteam^${id}>`;
  return escapeMrkdwn(id);
}
