import { LogLevel, SocketModeReceiver, webApi } from '@slack/bolt';
import type { Config } from '../config/config-schema.js';
import { describeSlackError, fixFor } from '../slack/slack-error-hints.js';

type Io = { out: (line: string) => void };

/** How long the doctor waits for the Socket Mode connection before calling it failed. */
const SOCKET_TIMEOUT_MS = 10_000;

/**
 * Checks what the relay needs from Slack, one line per check, each failure with what to do.
 * Returns 0 when all pass, 1 otherwise.
 */
export async function runDoctor(config: Config, io: Io): Promise<number> {
  const slack = config.slack;
  const client = new webApi.WebClient(slack.botToken, {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    logLevel: LogLevel.ERROR,
  });
  let failures = 0;
  const pass = (text: string) => io.out(`ok    ${text}`);
  const fail = (text: string, fix: string) => {
    failures += 1;
    io.out(`FAIL  ${text}\n      fix: ${fix}`);
  };

  let botUserId: string | undefined;
  try {
    const auth = await client.auth.test();
    botUserId = auth.user_id;
    pass(
      `bot token works (workspace ${auth.team ?? auth.team_id}, bot user ${auth.user ?? auth.user_id})`,
    );
  } catch (error) {
    fail(`bot token rejected: ${describeSlackError(error)}`, fixFor(describeSlackError(error)));
  }

  if (botUserId) {
    try {
      const info = await client.conversations.info({ channel: slack.channelId });
      const name = info.channel?.name ?? slack.channelId;
      if (info.channel?.is_member || info.channel?.is_im) {
        pass(`channel #${name} (${slack.channelId}) exists and the bot is in it`);
      } else {
        fail(
          `the bot is not in #${name} (${slack.channelId})`,
          `in Slack, open #${name} and type /invite @<your app's bot name>`,
        );
      }
    } catch (error) {
      fail(
        `cannot see channel ${slack.channelId}: ${describeSlackError(error)}`,
        fixFor(describeSlackError(error)),
      );
    }
  }

  if (slack.mode === 'socket') {
    const result = await checkSocketMode(slack.appToken, slack.apiUrl);
    if (result === 'ok') pass('Socket Mode connects with the app token');
    else fail(`Socket Mode did not connect: ${result}`, fixFor(result));
  } else {
    pass(`HTTP mode: Slack must reach this machine on port ${slack.port} at /slack/events`);
  }
  io.out(failures === 0 ? '\nAll checks passed.' : `\n${failures} check(s) failed.`);
  return failures === 0 ? 0 : 1;
}

async function checkSocketMode(appToken: string, apiUrl: string): Promise<string> {
  // Bolt's receiver builds the same Socket Mode client the relay uses.
  const socket = new SocketModeReceiver({
    appToken,
    logLevel: LogLevel.ERROR,
    installerOptions: { clientOptions: { slackApiUrl: apiUrl, retryConfig: { retries: 0 } } },
  }).client;
  try {
    const connected = new Promise<'ok'>((resolve) => socket.once('connected', () => resolve('ok')));
    const timeout = new Promise<string>((resolve) => {
      setTimeout(
        () => resolve(`no connection within ${SOCKET_TIMEOUT_MS / 1000} s`),
        SOCKET_TIMEOUT_MS,
      ).unref();
    });
    return await Promise.race([socket.start().then(() => connected), timeout]);
  } catch (error) {
    return describeSlackError(error);
  } finally {
    await socket.disconnect().catch(() => undefined);
  }
}
