import assert from 'node:assert/strict';
import { afterEach, beforeEach } from 'node:test';
import { App } from '@slack/bolt';
import { SocketModeClient } from '@slack/socket-mode';
import {
  type ActionsBlockElement,
  type Logger,
  LogLevel,
  WebClient,
  type WebClientOptions,
} from '@slack/web-api';
import { type FakeSlack, startFakeSlack } from './fake-slack.js';

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

/**
 * A fresh stand-in for each test of the describe this is called in, closed after the test:
 * call the function it returns inside a test.
 */
export function fakeSlackPerTest(): () => FakeSlack {
  let fake: FakeSlack | undefined;
  beforeEach(async () => {
    fake = await startFakeSlack();
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  return () => {
    assert.ok(fake, 'the stand-in of fakeSlackPerTest is there only while a test runs');
    return fake;
  };
}

/** The Slack error code a WebClient call was refused with, and the whole answer. */
export async function slackError(
  call: Promise<unknown>,
): Promise<{ error: string; data: Record<string, unknown> }> {
  try {
    await call;
  } catch (error) {
    const data = (error as { data?: Record<string, unknown> }).data;
    assert.ok(data, `expected a Slack platform error, got ${String(error)}`);
    return { error: String(data.error), data };
  }
  assert.fail('expected the call to be refused');
}

/** Posts, as the bot, a message of one actions block holding `elements`; returns its ts. */
export async function postActionsMessage(
  fake: FakeSlack,
  at: { channel: string; blockId: string },
  elements: ActionsBlockElement[],
): Promise<string> {
  const posted = await webClientFor(fake).chat.postMessage({
    channel: at.channel,
    text: 'question',
    blocks: [{ type: 'actions', block_id: at.blockId, elements }],
  });
  return String(posted.ts);
}

/** A Bolt App in Socket Mode pointed at the stand-in, silent and without retries; not started. */
export function socketAppFor(fake: FakeSlack): App {
  return new App({
    token: fake.botToken,
    appToken: fake.appToken,
    socketMode: true,
    logger: silentLogger,
    clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
  });
}

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

/** Sends `/o7 <text>` as `user` in `channel` through the stand-in; checks the app acknowledged it. */
export async function sendO7Command(fake: FakeSlack, text: string, user: string, channel: string) {
  const sent = await fake.slashCommand({ command: '/o7', text, user, channel });
  assert.equal(sent.acked, true, `/o7 ${text} acknowledged`);
  return sent;
}
