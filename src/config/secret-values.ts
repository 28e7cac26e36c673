/**
 * The one rule for values that look like secrets in the relay's configuration: a Slack token,
 * a URL with a user name or password, or the value of one of the three Slack secrets' variables
 * found in another variable. Such a value is refused where it does not belong, and no
 * configuration message ever repeats it.
 */

/** The variables that hold Slack's secrets; nothing else may hold what they hold. */
export const SECRET_VARIABLES = [
  'SLACK_BOT_TOKEN',
  'SLACK_APP_TOKEN',
  'SLACK_SIGNING_SECRET',
] as const;

/**
 * A Slack token: its prefix (bot, user, app-level, refresh, legacy workspace and the rest; a
 * rotating one is `xoxe.xoxp-…`), then dash-separated parts, the first with a digit in it (a
 * team or app number). Placeholders like `xoxb-your-bot-token` have none, and a folder such
 * as `xapp-2024/` has no second part.
 */
const TOKEN =
  /(?<![A-Za-z0-9])(xox[a-z](?:\.xox[a-z])?|xapp)-[A-Za-z0-9]*\d[A-Za-z0-9]*-[A-Za-z0-9]/i;

/** `scheme://user:password@`: credentials in a URL, wherever the URL sits in the value. */
const URL_CREDENTIALS = /[a-z][a-z0-9+.-]*:\/\/[^\s/?#@]*@/i;

/** A secret's value this short is too common to be looked for in other values. */
const SHORTEST_SECRET = 12;

/** Where a URL may carry a password: shared mode's Redis, which is never logged with it. */
const URL_CREDENTIALS_BELONG = new Set(['RELAY_REDIS_URL']);

/** Where a Slack token belongs: the variables whose own checks say which kind. */
const TOKENS_BELONG = new Set(['SLACK_BOT_TOKEN', 'SLACK_APP_TOKEN']);

/**
 * What `name`'s value in `env` looks like when it looks like a secret that does not belong
 * there (a phrase such as "a Slack token (xoxb-…)"), else undefined. Never the value itself.
 */
export function misplacedSecret(
  name: string,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const value = env[name];
  if (value === undefined || value.trim() === '') return undefined;
  const token = TOKENS_BELONG.has(name) ? null : TOKEN.exec(value);
  if (token) return `a Slack token (${(token[1] as string).toLowerCase()}-…)`;
  if (!URL_CREDENTIALS_BELONG.has(name) && hasUrlCredentials(value)) {
    return 'a URL with a user name or password in it (…@)';
  }
  for (const other of SECRET_VARIABLES) {
    const secret = (env[other] ?? '').trim();
    if (other !== name && secret.length >= SHORTEST_SECRET && value.includes(secret)) {
      return `the value of ${other}`;
    }
  }
  return undefined;
}

/** Whether the value holds `scheme://…@`, or parses as a URL with credentials (`https:u@h`). */
function hasUrlCredentials(value: string): boolean {
  if (URL_CREDENTIALS.test(value)) return true;
  try {
    const url = new URL(value.trim());
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}
