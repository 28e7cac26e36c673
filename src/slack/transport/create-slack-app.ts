import { App, LogLevel, type webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import type { Config } from '../../config/config-schema.js';
import { toBoltLogger } from './bolt-logger.js';
import { createGuardedHttpReceiver } from './guarded-http-receiver.js';
import type { SlackConnectionState } from './socket-connection.js';
import { SocketReceiver } from './socket-receiver.js';

/**
 * Web API retries: a few quick ones, then the queue's own back-off takes over, so an outage
 * never holds a run for long. 429s wait for Retry-After inside these retries.
 */
const API_RETRY = { retries: 4, factor: 2, minTimeout: 500, maxTimeout: 8000, randomize: true };

/** What operators' health and metrics (src/ops) follow of the app; each is optional. */
export interface SlackAppHooks {
  /** the `fetch` of every Web API client of the app, Socket Mode's included (see observed-fetch) */
  fetch?: webApi.FetchFunction;
  /** told each change of the connection Slack's interactions come through */
  onConnection?: (state: SlackConnectionState) => void;
}

/** Timing of the app's Slack clients that tests shorten; production uses the defaults. */
export interface SlackAppTiming {
  /** replaces the Web API retries */
  apiRetry?: webApi.RetryOptions;
  /** how long after the first Socket Mode connection the second opens (see socket-receiver) */
  socketStaggerMs?: number;
}

/**
 * Builds the Bolt app: Socket Mode with an app token (two connections, see socket-receiver),
 * HTTP with signature checks otherwise.
 * Either way a guard in front of Bolt refuses what Bolt would crash on.
 * `bot` comes from the relay's own token check: given the bot's ids and with token
 * verification off, Bolt never calls `auth.test` itself (its constructor would, and a refused
 * token would then surface as an unhandled rejection instead of a clear message).
 */
export function createSlackApp(
  slack: Config['slack'],
  log: Logger,
  bot: { botUserId: string; botId: string },
  hooks: SlackAppHooks = {},
  timing: SlackAppTiming = {},
): App {
  const fetch = hooks.fetch ? { fetch: hooks.fetch } : {};
  const logger = toBoltLogger(log.child({ component: 'bolt' }));
  const logLevel = log.isLevelEnabled('debug') ? LogLevel.DEBUG : LogLevel.INFO;
  const receiver =
    slack.mode === 'socket'
      ? new SocketReceiver({
          appToken: slack.appToken,
          apiUrl: slack.apiUrl,
          logger,
          logLevel,
          log,
          fetch: hooks.fetch,
          onConnection: hooks.onConnection,
          staggerMs: timing.socketStaggerMs,
        })
      : createGuardedHttpReceiver({
          signingSecret: slack.signingSecret,
          logger,
          logLevel,
          log: log.child({ component: 'slack-guard' }),
          onListening: (listening) => hooks.onConnection?.(listening ? 'connected' : 'closed'),
        });
  return new App({
    token: slack.botToken,
    botId: bot.botId,
    botUserId: bot.botUserId,
    tokenVerificationEnabled: false,
    receiver,
    logger,
    logLevel,
    clientOptions: {
      slackApiUrl: slack.apiUrl,
      retryConfig: { ...(timing.apiRetry ?? API_RETRY) },
      logger,
      logLevel,
      ...fetch,
    },
  });
}
