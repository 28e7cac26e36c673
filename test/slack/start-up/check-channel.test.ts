import assert from 'node:assert/strict';
import { test } from 'node:test';
import { webApi } from '@slack/bolt';
import { checkChannel } from '../../../src/slack/start-up/check-channel.js';
import { startFakeSlack } from '../../support/fake-slack/index.js';
import { captureLog } from '../../support/log-capture.js';

function capture() {
  const { log, records: lines } = captureLog('info');
  return { log, lines };
}

test('warns at start, with the fix, when the bot is not in the batch channel or it does not exist', async () => {
  const slack = await startFakeSlack();
  try {
    const client = new webApi.WebClient(slack.botToken, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
    });
    slack.addChannel({ id: 'C0OUTSIDE', name: 'outside', members: [], botIsMember: false });

    const fine = capture();
    await checkChannel(client, 'C0RELAY01', fine.log);
    assert.deepEqual(fine.lines, []);

    const outside = capture();
    await checkChannel(client, 'C0OUTSIDE', outside.log);
    assert.equal(outside.lines.length, 1);
    assert.match(String(outside.lines[0]?.msg), /the bot is not in the batch channel/);
    assert.match(String(outside.lines[0]?.fix), /\/invite/);

    const missing = capture();
    await checkChannel(client, 'C0NOWHERE', missing.log);
    assert.equal(missing.lines[0]?.error, 'channel_not_found');
    assert.match(String(missing.lines[0]?.fix), /SLACK_CHANNEL_ID/);
  } finally {
    await slack.close();
  }
});
