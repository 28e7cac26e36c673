// Channels per watched folder as an operator meets them: the real command, its environment,
// its exit codes (issue 14 §1).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startFakeSlack } from '../support/fake-slack/index.js';
import { CHANNEL } from '../support/relay-harness.js';
import { makeTempDir } from '../support/temp-dir.js';
import { runCli } from './run-cli.js';

describe('channels per watched folder on the command line', () => {
  test('without SLACK_CHANNEL_ID, a folder that names no channel stops the start (exit 2) and is named, beside a wrong entry', async () => {
    const { dir, cleanup } = await makeTempDir();
    try {
      const result = await runCli(
        ['start'],
        {
          SLACK_BOT_TOKEN: 'xoxb-1-2-abc',
          SLACK_APP_TOKEN: 'xapp-1-A1-2-abc',
          RELAY_WATCH: '/srv/a/.7/runs=C0AAAA,/srv/b/.7/runs,/srv/c=general',
        },
        dir,
      );
      assert.equal(result.code, 2, result.err);
      assert.match(
        result.err,
        /RELAY_WATCH has "\/srv\/c=general", whose "=general" is not a channel ID/,
      );
      // beside it, the entry that names no channel
      assert.match(
        result.err,
        /SLACK_CHANNEL_ID is not set, and RELAY_WATCH names no channel for "\/srv\/b\/\.7\/runs";/,
      );
    } finally {
      await cleanup();
    }
  });

  test('doctor with every folder naming its channel checks each, and fails for one the bot is not in', async () => {
    const slack = await startFakeSlack();
    const { dir, cleanup } = await makeTempDir();
    try {
      slack.addChannel({ id: 'C0OUTSIDE', name: 'outside', members: [], botIsMember: false });
      const result = await runCli(
        ['doctor'],
        {
          SLACK_BOT_TOKEN: slack.botToken,
          SLACK_APP_TOKEN: slack.appToken,
          SLACK_API_URL: slack.apiUrl,
          RELAY_WATCH: `runs-a=${CHANNEL},runs-b=C0OUTSIDE`,
        },
        dir,
      );
      assert.equal(result.code, 1, result.out + result.err);
      assert.match(
        result.out,
        new RegExp(
          `ok {4}channel #o7-relay \\(${CHANNEL}\\) exists and the bot is in it \\(for \\S+/runs-a, ask\\)`,
        ),
      );
      assert.match(
        result.out,
        /FAIL {2}the bot is not in #outside \(C0OUTSIDE\) \(for \S+\/runs-b\)/,
      );
      assert.match(result.out, /1 check failed/);
    } finally {
      await slack.close();
      await cleanup();
    }
  });
});
