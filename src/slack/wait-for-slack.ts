import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { SlackConfig } from '../config/config-schema.js';
import { ErrorCode, RelayError } from '../errors.js';
import {
  type BotIdentity,
  checkAppToken,
  checkBotToken,
  checkClient,
  tokenFix,
} from './token-check.js';

/** How long to wait between tries while Slack cannot be reached: doubling from first to most. */
export interface SlackWaitOptions {
  firstRetryMs?: number;
  mostRetryMs?: number;
}

const WAIT_DEFAULTS = { firstRetryMs: 1000, mostRetryMs: 30_000 } as const;

/**
 * Checks the tokens before anything else talks to Slack: the bot token with `auth.test`, and
 * in Socket Mode the app token with `apps.connections.open`. A token Slack refuses is a
 * configuration error naming its variable (the relay exits 2); while Slack cannot be reached
 * the relay keeps trying, one log line per try, since a relay started at boot may come up
 * before the network does. Returns who the bot is, so Bolt need not ask again.
 */
export async function waitForSlack(
  slack: SlackConfig,
  log: Logger,
  options: SlackWaitOptions = {},
): Promise<BotIdentity> {
  const first = options.firstRetryMs ?? WAIT_DEFAULTS.firstRetryMs;
  const most = options.mostRetryMs ?? WAIT_DEFAULTS.mostRetryMs;
  const client = checkClient(slack.botToken, slack.apiUrl);
  let delay = first;
  for (let attempt = 1; ; attempt += 1) {
    const reason = await tryOnce();
    if (typeof reason !== 'string') {
      if (attempt > 1) log.info({ attempts: attempt }, 'Slack can be reached now');
      return reason;
    }
    log.warn(
      { attempt, apiUrl: slack.apiUrl, reason, retryInMs: delay },
      `Slack cannot be reached (${reason}); trying again in ${Math.round(delay / 1000)} s. If this goes on, check the network, proxies and SLACK_API_URL`,
    );
    await sleep(delay);
    delay = Math.min(delay * 2, most);
  }

  /** One try: who the bot is, or why Slack could not be reached; throws for a refused token. */
  async function tryOnce(): Promise<BotIdentity | string> {
    const bot = await checkBotToken(client);
    if (!bot.ok) {
      if (bot.kind === 'rejected') throw tokenRejected('SLACK_BOT_TOKEN', bot.code);
      return bot.reason;
    }
    if (slack.mode !== 'socket') return bot.value;
    const app = await checkAppToken(slack.appToken, slack.apiUrl);
    if (app.ok) return bot.value;
    if (app.kind === 'rejected') throw tokenRejected('SLACK_APP_TOKEN', app.code);
    return app.reason;
  }
}

/** The start-up error for a token Slack refused: which variable, Slack's code, and the fix. */
function tokenRejected(variable: 'SLACK_BOT_TOKEN' | 'SLACK_APP_TOKEN', code: string) {
  return new RelayError(
    ErrorCode.ConfigInvalid,
    `The relay cannot start: Slack refused ${variable} (${code}).\nFix: ${tokenFix(variable, code)} Then start again.`,
  );
}
