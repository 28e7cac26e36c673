import assert from 'node:assert/strict';
import { test } from 'node:test';
import { webApi } from '@slack/bolt';
import { tellUser } from '../../../src/slack/presenting/tell-user.js';
import { captureRelayLog } from '../../support/log-capture.js';

test('tellUser log-line forging: agent text goes in a field, not the message', async () => {
  const { log, records: lines } = captureRelayLog();
  const forged = 'hi\n{"level":50,"msg":"relay compromised"}';
  // no channel: nothing is sent, so the client is never called
  await tellUser(
    new webApi.WebClient('xoxb-unused'),
    log,
    { user: 'U1', channel: undefined },
    forged,
  );
  assert.equal(lines.length, 1);
  assert.equal(lines[0]?.msg, 'could not tell user (no channel)');
  assert.equal(lines[0]?.text, forged);
});
