import { LogLevel, webApi } from '@slack/bolt';

type WebClient = webApi.WebClient;

/**
 * What one try at Slack found out, told apart the way a person must act on it: `rejected`
 * (Slack answered and refused: fix the setting) or `unreachable` (no answer, or Slack is
 * having trouble: wait and try again).
 */
export type SlackAnswer<T> =
  | { ok: true; value: T }
  | { ok: false; kind: 'rejected'; code: string }
  | { ok: false; kind: 'unreachable'; reason: string };

/** Slack's own "try again later" answers; every other error code is a refusal. */
const TRANSIENT_CODES = new Set([
  'ratelimited',
  'fatal_error',
  'internal_error',
  'service_unavailable',
  'request_timeout',
]);

/** How long one check may take before Slack counts as unreachable. */
const CHECK_TIMEOUT_MS = 10_000;

/** Sorts a failed Web API call into a refusal (with Slack's code) or "unreachable". */
export function classifySlackFailure(error: unknown): Exclude<SlackAnswer<never>, { ok: true }> {
  if (error instanceof webApi.WebAPIPlatformError) {
    const code = error.data.error;
    return TRANSIENT_CODES.has(code)
      ? { ok: false, kind: 'unreachable', reason: `Slack answered ${code}` }
      : { ok: false, kind: 'rejected', code };
  }
  if (error instanceof webApi.WebAPIHTTPError) {
    return { ok: false, kind: 'unreachable', reason: `HTTP ${error.statusCode} from Slack` };
  }
  if (error instanceof webApi.WebAPIRateLimitedError) {
    return { ok: false, kind: 'unreachable', reason: `rate limited for ${error.retryAfter} s` };
  }
  if (error instanceof webApi.WebAPIRequestError) {
    return { ok: false, kind: 'unreachable', reason: networkReason(error.original) };
  }
  return { ok: false, kind: 'unreachable', reason: String(error) };
}

/** The most telling words of a network failure: `ECONNREFUSED`, `ENOTFOUND`, a timeout. */
function networkReason(error: Error): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (error.name === 'TimeoutError') return `no answer within ${CHECK_TIMEOUT_MS / 1000} s`;
  return typeof cause?.message === 'string' ? cause.message : error.message;
}

/**
 * A Web API client for one-shot checks: no retries (the caller decides), no waiting out a
 * rate limit, a timeout, and no SDK log lines (the caller logs one line per try).
 */
export function checkClient(token: string, apiUrl: string): WebClient {
  return new webApi.WebClient(token, {
    slackApiUrl: apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: CHECK_TIMEOUT_MS,
    logLevel: LogLevel.ERROR,
    logger: SILENT,
  });
}

const SILENT = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => LogLevel.ERROR,
  setName: () => {},
};

/** Who the bot token belongs to, and the scopes Slack says it was granted. */
export interface BotIdentity {
  botUserId: string;
  botId: string;
  team: string;
  user: string;
  /** the workspace's URL (`https://<name>.slack.com/`), where its messages' links start */
  url?: string;
  /** from the `x-oauth-scopes` header; undefined when Slack sent none */
  scopes: string[] | undefined;
}

/** `auth.test` with the bot token. */
export async function checkBotToken(client: WebClient): Promise<SlackAnswer<BotIdentity>> {
  try {
    const auth = await client.auth.test();
    if (!auth.user_id || !auth.bot_id) {
      // a user token (xoxp-) passes auth.test but is no bot
      return { ok: false, kind: 'rejected', code: 'not_a_bot_token' };
    }
    return {
      ok: true,
      value: {
        botUserId: auth.user_id,
        botId: auth.bot_id,
        team: auth.team ?? auth.team_id ?? 'the workspace',
        user: auth.user ?? auth.user_id,
        ...(auth.url ? { url: auth.url } : {}),
        scopes: auth.response_metadata?.scopes,
      },
    };
  } catch (error) {
    return classifySlackFailure(error);
  }
}

/**
 * `apps.connections.open` with the app-level token: Slack hands out a Socket Mode URL, which
 * is simply not used. Opening the socket itself would make this check one more connection
 * among which Slack spreads the app's events, taking clicks away from a running relay.
 */
export async function checkAppToken(appToken: string, apiUrl: string): Promise<SlackAnswer<true>> {
  try {
    await checkClient(appToken, apiUrl).apps.connections.open({});
    return { ok: true, value: true };
  } catch (error) {
    return classifySlackFailure(error);
  }
}

/** What to do about a refused token, in one sentence; `variable` names the setting. */
export function tokenFix(variable: 'SLACK_BOT_TOKEN' | 'SLACK_APP_TOKEN', code: string): string {
  const where =
    variable === 'SLACK_BOT_TOKEN'
      ? 'copy the Bot User OAuth Token (xoxb-…) from OAuth & Permissions in your Slack app (install the app to the workspace first if there is none)'
      : 'generate an app-level token with the connections:write scope under Basic Information → App-Level Tokens in your Slack app';
  switch (code) {
    case 'not_allowed_token_type':
    case 'not_a_bot_token':
      return `${variable} is the wrong kind of token: ${where}.`;
    case 'token_revoked':
    case 'token_expired':
      return `${variable} was revoked or has expired: ${where}.`;
    case 'account_inactive':
    case 'team_disabled':
    case 'user_removed_from_team':
      return `the app or its workspace is deactivated, or the app was uninstalled: reinstall it, then ${where}.`;
    case 'missing_scope':
      return `${variable} lacks a scope: update the app from manifest.yml (App Manifest tab), reinstall it, then ${where}.`;
    default:
      return `${variable} is wrong, revoked, or belongs to another app or workspace: ${where}.`;
  }
}
