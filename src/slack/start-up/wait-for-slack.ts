import type { Logger } from 'pino';
import type { SlackConfig } from '../../config/config-schema.js';
import { ErrorCode, RelayError } from '../../errors.js';
import { type BackOff, type TryOutcome, waitUntilReachable } from '../../wait-until-reachable.js';
import {
  type BotIdentity,
  checkAppToken,
  checkBotToken,
  checkClient,
  tokenFix,
} from './token-check.js';

/**
 * Checks the tokens before anything else talks to Slack: the bot token with `auth.test`, and
 * in Socket Mode the app token with `apps.connections.open`. A token Slack refuses is a
 * configuration error naming its variable (the relay exits 2); while Slack cannot be reached
 * the relay waits for it (`waitUntilReachable`: one warning, then the tries at debug). Returns
 * who the bot is, so Bolt need not ask again. `signal` gives the wait up.
 */
export async function waitForSlack(
  slack: SlackConfig,
  log: Logger,
  options: { backOff?: BackOff; signal?: AbortSignal } = {},
): Promise<BotIdentity> {
  const client = checkClient(slack.botToken, slack.apiUrl);
  /** One try: who the bot is, or why Slack could not be reached; throws for a refused token. */
  const tryOnce = async (): Promise<TryOutcome<BotIdentity>> => {
    const bot = await checkBotToken(client);
    if (!bot.ok) {
      if (bot.kind === 'rejected') throw tokenRejected('SLACK_BOT_TOKEN', bot.code);
      return bot;
    }
    if (slack.mode !== 'socket') return bot;
    const app = await checkAppToken(slack.appToken, slack.apiUrl);
    if (app.ok) return bot;
    if (app.kind === 'rejected') throw tokenRejected('SLACK_APP_TOKEN', app.code);
    return app;
  };
  return waitUntilReachable({
    tryOnce,
    log,
    service: 'Slack',
    where: { apiUrl: slack.apiUrl },
    hint: 'If this goes on, check the network, proxies and SLACK_API_URL.',
    ...options,
  });
}

/** The start-up error for a token Slack refused: which variable, Slack's code, and the fix. */
function tokenRejected(variable: 'SLACK_BOT_TOKEN' | 'SLACK_APP_TOKEN', code: string) {
  return new RelayError(
    ErrorCode.ConfigInvalid,
    `The relay cannot start: Slack refused ${variable} (${code}).\nFix: ${tokenFix(variable, code)} Then start again.`,
  );
}
