/**
 * Every Web API method the relay calls with the bot token, and the bot scopes it needs
 * (from each method's page on docs.slack.dev). `manifest.yml` asks for exactly the scopes
 * listed here and `doctor` checks the installed app against them; a test keeps the three
 * in step, and fails when the code calls a method missing from this table.
 */
export const BOT_METHOD_SCOPES = {
  'auth.test': [],
  'chat.postMessage': ['chat:write'],
  'chat.update': ['chat:write'],
  'chat.postEphemeral': ['chat:write'],
  'chat.getPermalink': [],
  // the bot's own digest, when it moves to the bottom or too few batches remain
  'chat.delete': ['chat:write'],
  // the batch channel: public (channels:read) or private (groups:read)
  'conversations.info': ['channels:read', 'groups:read'],
  // the direct message a hand-off is sent to
  'conversations.open': ['im:write'],
  // refusing hand-offs to bots and deactivated accounts; RELAY_ESCALATE_TO
  'users.info': ['users:read'],
  // user groups in RELAY_ALLOWED_USERS and RELAY_ESCALATE_TO
  'usergroups.list': ['usergroups:read'],
  'usergroups.users.list': ['usergroups:read'],
  'views.open': [],
  'views.push': [],
  'views.update': [],
  'views.publish': [],
  // a preview too big for any modal goes to the batch's thread as a file
  'files.uploadV2': ['files:write'],
} as const satisfies Record<string, readonly string[]>;

/** Methods called with the app-level token (its one scope, connections:write, is not a bot scope). */
export const APP_TOKEN_METHODS = ['apps.connections.open'] as const;

/** The bot scopes the relay needs, each once, in the order first needed above. */
export const REQUIRED_BOT_SCOPES: readonly string[] = [
  ...new Set(Object.values(BOT_METHOD_SCOPES).flat()),
];

/** Which required scopes a token lacks, and which it has without needing them. */
export function compareScopes(granted: readonly string[]): { missing: string[]; extra: string[] } {
  return {
    missing: REQUIRED_BOT_SCOPES.filter((scope) => !granted.includes(scope)),
    extra: granted.filter((scope) => !REQUIRED_BOT_SCOPES.includes(scope)),
  };
}
