/**
 * What a Slack Web API error code means for the relay: whether trying again can ever help, what
 * it is about (so the relay knows whom to tell), and what a person should do. One table, so
 * the queue, the presenter, `doctor` and docs/slack-errors.md agree.
 */

/** What a refusal is about. */
export const SLACK_ERROR_SCOPES = {
  /** Slack or the network is having trouble; the same call may work in a moment */
  transient: 'transient',
  /** the message itself (its blocks or size): another attempt with the same content fails */
  content: 'content',
  /** the channel (archived, gone, the bot not in it): nothing can be posted there until fixed */
  channel: 'channel',
  /** one message (deleted, or too old to edit): it is posted anew */
  message: 'message',
  /** the app's token or scopes: every call fails until the app is fixed */
  app: 'app',
  /** a person (deactivated, unknown, hidden): their direct messages cannot be used */
  person: 'person',
} as const;
export type SlackErrorScope = (typeof SLACK_ERROR_SCOPES)[keyof typeof SLACK_ERROR_SCOPES];

/**
 * What the relay tries first about a refused message before it takes the refusal as the scope
 * says: lay the batch out smaller (Slack's size ceiling is unpublished, and `invalid_blocks` can
 * mean a message too big as well), or post the message anew (it was deleted, or is too old to
 * edit).
 */
export type SlackErrorRemedy = 'split-smaller' | 'post-anew';

/** One error code's meaning. */
export interface SlackErrorKind {
  scope: SlackErrorScope;
  /** What to do, in one sentence for the person reading a notice or a log line. */
  fix: string;
  remedy?: SlackErrorRemedy;
}

const INVITE =
  'invite the bot to the channel named by SLACK_CHANNEL_ID (/invite @<the app’s bot name>)';
const TOKEN =
  'the token is wrong or was revoked: copy it again from the Slack app (OAuth & Permissions for xoxb-, Basic Information → App-Level Tokens for xapp-) and restart the relay';
const RETRYING = 'nothing to do: the relay tries again by itself';

/** What each code Slack gives is about, and what to do, by what it is about. */
const FIXES_BY_SCOPE: Readonly<Record<SlackErrorScope, Readonly<Record<string, string>>>> = {
  transient: {
    ratelimited: RETRYING,
    rate_limited: RETRYING,
    service_unavailable: RETRYING,
    fatal_error: RETRYING,
    internal_error: RETRYING,
    request_timeout: RETRYING,
    team_added_to_org: RETRYING,
  },
  content: {
    invalid_blocks:
      'Slack would not show this batch even split into one question per message: answer it in the terminal, or shorten the question file',
    msg_blocks_too_long:
      'the batch is too long for Slack even at one question per message: answer it in the terminal, or shorten its prompts and previews',
    msg_too_long:
      'the message text is too long for Slack: answer it in the terminal, or shorten the question file',
    invalid_attachments: 'answer it in the terminal, or shorten the question file',
    view_too_large: 'the form is too large for Slack; the relay cuts it, so report this as a bug',
  },
  channel: {
    not_in_channel: INVITE,
    channel_not_found:
      'check SLACK_CHANNEL_ID (channel details → About → Channel ID); for a private channel, invite the bot first',
    is_archived:
      'the channel is archived: unarchive it, or set SLACK_CHANNEL_ID to another channel',
    is_inactive:
      'the channel is inactive: unarchive it, or set SLACK_CHANNEL_ID to another channel',
    restricted_action:
      'the workspace does not let the bot post in this channel: ask a workspace admin, or use another channel',
    restricted_action_read_only_channel: 'the channel is read-only: use another channel',
    restricted_action_non_threadable_channel:
      'the channel does not allow threads: use another channel',
    message_limit_exceeded:
      'the workspace has reached its message limit (free plans): ask a workspace admin',
  },
  message: {
    message_not_found: 'the message was deleted; the relay posts it again',
    cant_update_message: 'the message can no longer be edited; the relay posts it again',
    edit_window_closed: 'the message can no longer be edited; the relay posts it again',
  },
  app: {
    invalid_auth: TOKEN,
    not_authed: TOKEN,
    account_inactive: TOKEN,
    token_revoked: TOKEN,
    token_expired: TOKEN,
    no_permission:
      'the app lacks a permission: update it from manifest.yml (App Manifest tab), then reinstall it',
    missing_scope:
      'the app lacks a scope: update it from manifest.yml (App Manifest tab), then reinstall it to the workspace',
    not_allowed_token_type:
      'the token is of the wrong type: SLACK_BOT_TOKEN must start with xoxb-, SLACK_APP_TOKEN with xapp-',
  },
  person: {
    user_not_found: 'that person is not in the workspace: hand the batch to someone else',
    user_disabled: 'that person was deactivated: hand the batch to someone else',
    user_not_visible: 'the bot cannot see that person: hand the batch to someone else',
    cannot_dm_bot: 'bots have no direct messages: hand the batch to a person',
  },
};

/** The content codes that may only mean a message too big for Slack (see `SlackErrorRemedy`). */
const SPLIT_SMALLER: readonly string[] = ['msg_blocks_too_long', 'invalid_blocks'];

/** What the relay tries first about `code` of `scope`, if anything. */
function remedyOf(scope: SlackErrorScope, code: string): SlackErrorRemedy | undefined {
  if (scope === 'message') return 'post-anew';
  return SPLIT_SMALLER.includes(code) ? 'split-smaller' : undefined;
}

/** Every code the relay knows; see `slackErrorKind` for the rest. */
export const SLACK_ERROR_KINDS: Readonly<Record<string, SlackErrorKind>> = Object.fromEntries(
  Object.entries(FIXES_BY_SCOPE).flatMap(([name, fixes]) => {
    const scope = name as SlackErrorScope;
    return Object.entries(fixes).map(([code, fix]) => {
      const remedy = remedyOf(scope, code);
      return [code, { scope, fix, ...(remedy ? { remedy } : {}) }];
    });
  }),
);

/**
 * What a Slack error code means. A code the table does not list is treated as transient: the
 * relay keeps retrying it with a growing back-off, and says so in the log each time.
 */
export function slackErrorKind(code: string): SlackErrorKind & { known: boolean } {
  const kind = Object.hasOwn(SLACK_ERROR_KINDS, code) ? SLACK_ERROR_KINDS[code] : undefined;
  return kind
    ? { ...kind, known: true }
    : { scope: 'transient', fix: 'unknown to the relay; it keeps trying', known: false };
}

/**
 * The transient codes with which Slack says it is in trouble itself, as HTTP 5xx would: the
 * relay then takes Slack as down and waits for it to answer again (a rate limit, or a code
 * about this one call, is Slack answering).
 */
const OUTAGE_CODES: ReadonlySet<string> = new Set([
  'service_unavailable',
  'fatal_error',
  'internal_error',
  'request_timeout',
]);

/** Whether `code` means Slack is down rather than refusing or limiting one call. */
export const isSlackOutageCode = (code: string): boolean => OUTAGE_CODES.has(code);
