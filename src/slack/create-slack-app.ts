import { App, LogLevel, SocketModeReceiver, type webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import type { Config } from '../config/config-schema.js';
import { toBoltLogger } from './bolt-logger.js';
import { guardSocketFrames } from './guard-socket-frames.js';
import { createGuardedHttpReceiver } from './guarded-http-receiver.js';
import { followSocketConnection, type SlackConnectionState } from './socket-connection.js';

/**
 * Web API retries: a few quick ones, then the queue's own back-off takes over, so an outage
 * never holds a run for long. 429s wait for Retry-After inside these retries.
 */
const API_RETRY = { retries: 4, factor: 2, minTimeout: 500, maxTimeout: 8000, randomize: true };

/**
 * Socket connection retries: keep trying for a long time. This object is separate from the
 * Web API's because the Socket Mode client writes into the options it is given.
 */
const SOCKET_RETRY = { retries: 1000, factor: 1.5, minTimeout: 1000, maxTimeout: 30_000 };

/** What operators' health and metrics (src/ops) follow of the app; each is optional. */
export interface SlackAppHooks {
  /** the `fetch` of every Web API client of the app, Socket Mode's included (see observed-fetch) */
  fetch?: webApi.FetchFunction;
  /** told each change of the connection Slack's interactions come through */
  onConnection?: (state: SlackConnectionState) => void;
}

/**
 * Builds the Bolt app: Socket Mode with an app token, HTTP with signature checks otherwise.
 * `apiRetry` replaces the Web API retries (tests pass quick ones).
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
  apiRetry: webApi.RetryOptions = API_RETRY,
): App {
  const fetch = hooks.fetch ? { fetch: hooks.fetch } : {};
  const logger = toBoltLogger(log.child({ component: 'bolt' }));
  const logLevel = log.isLevelEnabled('debug') ? LogLevel.DEBUG : LogLevel.INFO;
  const receiver =
    slack.mode === 'socket'
      ? new SocketModeReceiver({
          appToken: slack.appToken,
          logger,
          logLevel,
          installerOptions: {
            clientOptions: {
              slackApiUrl: slack.apiUrl,
              retryConfig: { ...SOCKET_RETRY },
              ...fetch,
            },
          },
        })
      : createGuardedHttpReceiver({
          signingSecret: slack.signingSecret,
          logger,
          logLevel,
          log: log.child({ component: 'slack-guard' }),
          onListening: (listening) => hooks.onConnection?.(listening ? 'connected' : 'closed'),
        });
  if (receiver instanceof SocketModeReceiver) {
    guardSocketFrames(receiver, log.child({ component: 'slack-guard' }));
    if (hooks.onConnection) followSocketConnection(receiver.client, hooks.onConnection);
  }
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
      retryConfig: { ...apiRetry },
      logger,
      logLevel,
      ...fetch,
    },
  });
}
