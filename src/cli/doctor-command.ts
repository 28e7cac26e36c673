import path from 'node:path';
import { asksRoot, watchedRoots } from '../ask/ask-folder.js';
import type { Config } from '../config/config-schema.js';
import type { BatchRecord } from '../core/batch/batch-record.js';
import { channelForPath, channelsOf } from '../core/slack/channel-routes.js';
import { describeSlackError, fixFor } from '../slack/presenting/slack-errors.js';
import { readPresentation } from '../slack/presenting/slack-presentation.js';
import { checkEscalationTarget, escalationProblem } from '../slack/start-up/escalation-target.js';
import { compareScopes, REQUIRED_BOT_SCOPES } from '../slack/start-up/required-scopes.js';
import {
  type BotIdentity,
  checkAppToken,
  checkBotToken,
  checkClient,
  tokenFix,
} from '../slack/start-up/token-check.js';
import { checkRedis, type RedisDoctorDeps } from './doctor-redis.js';

type Io = { out: (line: string) => void };

/** What doctor does beyond Slack: read the relay's state, and nudge a running relay. */
export interface DoctorDeps {
  /** the batch records in the state folder, read only */
  readRecords: (stateDir: string) => Promise<BatchRecord[]>;
  /**
   * Asks the relay running on `stateDir`, if any, to try again the batches Slack refused
   * (they wait otherwise for a change or an hour); resolves to its pid, or undefined.
   */
  retryRefused: (stateDir: string) => Promise<number | undefined>;
  /** what the shared-mode checks need; they run when RELAY_REDIS_URL is set */
  redis?: RedisDoctorDeps;
}

/**
 * Checks what the relay needs from Slack, one line per check, each failure with what to do:
 * the tokens, the bot's scopes, every batch channel, and `RELAY_ESCALATE_TO`. It never opens a
 * Socket Mode connection, so it is safe to run beside a running relay (Slack would hand
 * some of the relay's clicks to a connection that never answers them). Returns 0 when all
 * pass, 1 otherwise. In shared mode it also checks Redis and RELAY_NODE (see `checkRedis`).
 */
export async function runDoctor(config: Config, io: Io, deps: DoctorDeps): Promise<number> {
  const slack = config.slack;
  const client = checkClient(slack.botToken, slack.apiUrl);
  let failures = 0;
  const pass = (text: string) => io.out(`ok    ${text}`);
  const fail = (text: string, fix: string) => {
    failures += 1;
    io.out(`FAIL  ${text}\n      fix: ${fix}`);
  };
  const unreachable = (reason: string, note = '') =>
    fail(
      `Slack cannot be reached at ${slack.apiUrl} (${reason})${note}`,
      'check the network, proxies and SLACK_API_URL, then run doctor again',
    );
  const note = (text: string, fix?: string) =>
    io.out(fix ? `note  ${text}\n      fix: ${fix}` : `note  ${text}`);
  // Redis is checked whatever Slack says: the two are fixed apart
  const done = async () => {
    if (config.shared && deps.redis) {
      await checkRedis(config.shared, config.stateDir, { pass, fail, note }, deps.redis);
    }
    io.out(
      failures === 0
        ? '\nAll checks passed.'
        : `\n${failures} ${failures === 1 ? 'check' : 'checks'} failed.`,
    );
    return failures === 0 ? 0 : 1;
  };

  const bot = await checkBotToken(client);
  if (!bot.ok) {
    if (bot.kind === 'unreachable') unreachable(bot.reason, '; nothing else could be checked');
    else fail(`Slack refused SLACK_BOT_TOKEN (${bot.code})`, tokenFix('SLACK_BOT_TOKEN', bot.code));
    return await done();
  }
  pass(`SLACK_BOT_TOKEN works (workspace ${bot.value.team}, bot user ${bot.value.user})`);
  checkScopes(bot.value, pass, fail);

  const channels = channelsOf(watchedRoots(config));
  for (const channel of channels) {
    const usedBy = channels.length > 1 ? ` (${channelUse(config, channel)})` : '';
    await checkBatchChannel(client, channel, usedBy, { pass, fail });
  }

  if (slack.mode === 'socket') {
    const app = await checkAppToken(slack.appToken, slack.apiUrl);
    if (app.ok) pass('SLACK_APP_TOKEN works: Socket Mode can connect (no connection was opened)');
    else if (app.kind === 'unreachable') unreachable(app.reason, ' to check SLACK_APP_TOKEN');
    else fail(`Slack refused SLACK_APP_TOKEN (${app.code})`, tokenFix('SLACK_APP_TOKEN', app.code));
  } else {
    pass(`HTTP mode: Slack must reach this machine on port ${slack.port} at /slack/events`);
  }

  const escalateTo = config.reminders?.escalate?.to;
  if (escalateTo) {
    const target = await checkEscalationTarget(client, escalateTo);
    if (target.ok) pass(`RELAY_ESCALATE_TO is ${target.value}, who can take escalated batches`);
    else if (target.kind === 'unreachable') {
      fail(
        `could not look RELAY_ESCALATE_TO up (${target.reason})`,
        'run doctor again once Slack answers',
      );
    } else {
      const [problem, fix] = splitFix(escalationProblem(escalateTo, target.code));
      fail(problem, fix);
    }
  }

  // Batches Slack refused for good: the relay only tries them again on a change, hourly, or
  // when asked. Checks that pass now mean a fix may have landed: ask.
  const refused = (await deps.readRecords(config.stateDir)).filter(
    (r) => r.status === 'open' && r.undeliverable,
  );
  for (const record of refused) {
    const { code, fix, at } = record.undeliverable as NonNullable<BatchRecord['undeliverable']>;
    // with several channels, say which one: the one it was shown in, else its folder's
    const channel =
      channels.length > 1
        ? ` in ${readPresentation(record.presentation)?.channel ?? channelForPath(watchedRoots(config), config.slack.channelId, record.runDir)}`
        : '';
    io.out(
      `note  run ${path.basename(record.runDir)}, batch ${record.seq}${channel}: Slack refused to show it (${code}) at ${at}\n      fix: ${fix}`,
    );
  }
  if (failures === 0 && refused.length > 0) {
    const pid = await deps.retryRefused(config.stateDir);
    io.out(
      pid === undefined
        ? 'note  no relay is running on RELAY_STATE_DIR; it shows them again when it starts'
        : `ok    told the running relay (pid ${pid}) to show them again now`,
    );
  }
  return await done();
}

/**
 * Whether the bot can post in one batch channel: it exists, is not archived, and the bot is in
 * it. `usedBy` follows the channel's name when there are several.
 */
async function checkBatchChannel(
  client: ReturnType<typeof checkClient>,
  channel: string,
  usedBy: string,
  { pass, fail }: { pass: (text: string) => void; fail: (text: string, fix: string) => void },
): Promise<void> {
  try {
    const info = await client.conversations.info({ channel });
    const name = info.channel?.name ?? channel;
    if (info.channel?.is_archived) {
      fail(
        `#${name} (${channel}) is archived${usedBy}`,
        'unarchive it, or name another channel in SLACK_CHANNEL_ID or RELAY_WATCH',
      );
    } else if (info.channel?.is_member || info.channel?.is_im) {
      pass(`channel #${name} (${channel}) exists and the bot is in it${usedBy}`);
    } else {
      fail(
        `the bot is not in #${name} (${channel})${usedBy}`,
        `in Slack, open #${name} and type /invite @<your app's bot name>`,
      );
    }
  } catch (error) {
    const code = describeSlackError(error);
    fail(`cannot see channel ${channel}${usedBy}: ${code}`, fixFor(code));
  }
}

/** What posts in a channel: the folders routed to it, and `ask`. */
function channelUse(config: Config, channel: string): string {
  const folders = config.watch.filter((root) => root.channel === channel).map((root) => root.path);
  const askChannel = channelForPath(
    watchedRoots(config),
    config.slack.channelId,
    asksRoot(config.stateDir),
  );
  const uses = [...folders, ...(channel === askChannel ? ['ask'] : [])];
  return `for ${uses.join(', ')}`;
}

/** The granted scopes (Slack's `x-oauth-scopes`) against the ones the relay uses. */
function checkScopes(
  bot: BotIdentity,
  pass: (text: string) => void,
  fail: (text: string, fix: string) => void,
): void {
  if (!bot.scopes) {
    fail(
      'Slack did not say which scopes the bot has (no x-oauth-scopes header)',
      'check that SLACK_API_URL points at Slack itself and not at a proxy that drops headers',
    );
    return;
  }
  const { missing, extra } = compareScopes(bot.scopes);
  if (missing.length > 0) {
    fail(
      `the bot lacks scopes the relay uses: ${missing.join(', ')}`,
      'paste manifest.yml in your app’s App Manifest tab and save, then reinstall the app to the workspace (OAuth & Permissions)',
    );
    return;
  }
  const unneeded =
    extra.length > 0 ? `; also granted, not needed (remove them): ${extra.join(', ')}` : '';
  pass(`the bot has the ${REQUIRED_BOT_SCOPES.length} scopes the relay uses${unneeded}`);
}

/** "X is Y; do Z" as the problem and the fix. */
function splitFix(sentence: string): [string, string] {
  const at = sentence.indexOf('; ');
  return at < 0 ? [sentence, 'check the ID'] : [sentence.slice(0, at), sentence.slice(at + 2)];
}
