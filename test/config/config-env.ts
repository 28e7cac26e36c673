/** The two tokens Socket Mode needs, with no channel: for the tests of channel rules. */
export const SOCKET_TOKENS = {
  SLACK_BOT_TOKEN: 'xoxb-1-2-abc',
  SLACK_APP_TOKEN: 'xapp-1-A1-2-abc',
};

/** The smallest environment that loads in Socket Mode: its two tokens and one channel. */
export const SOCKET_ENV = { ...SOCKET_TOKENS, SLACK_CHANNEL_ID: 'C0123ABCD' };

/** The smallest environment that loads in HTTP mode: a bot token, a signing secret, a channel. */
export const HTTP_ENV = {
  SLACK_BOT_TOKEN: 'xoxb-1-2-abc',
  SLACK_SIGNING_SECRET: 'secret',
  SLACK_CHANNEL_ID: 'C0123ABCD',
};
