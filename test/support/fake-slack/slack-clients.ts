import { SocketModeClient } from '@slack/socket-mode';
import { type Logger, LogLevel, WebClient, type WebClientOptions } from '@slack/web-api';
import type { FakeSlack } from './fake-slack.js';

/** A logger that drops everything, so SDK chatter does not clutter test output. */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => LogLevel.ERROR,
  setName: () => {},
};

/** A real WebClient pointed at the stand-in with the bot token. */
export function webClientFor(fake: FakeSlack, options: WebClientOptions = {}): WebClient {
  return new WebClient(fake.botToken, {
    slackApiUrl: fake.apiUrl,
    logger: silentLogger,
    ...options,
  });
}

/**
 * A real SocketModeClient pointed at the stand-in. `retryConfig` is set explicitly because the
 * client writes its own (100 retries) into the clientOptions object when none is given.
 */
export function socketClientFor(
  fake: FakeSlack,
  options: { clientPingTimeout?: number; autoReconnectEnabled?: boolean } = {},
): SocketModeClient {
  return new SocketModeClient({
    appToken: fake.appToken,
    logger: silentLogger,
    clientPingTimeout: options.clientPingTimeout ?? 5000,
    autoReconnectEnabled: options.autoReconnectEnabled ?? true,
    clientOptions: {
      slackApiUrl: fake.apiUrl,
      retryConfig: { retries: 3, factor: 1, minTimeout: 100, maxTimeout: 500 },
    },
  });
}
