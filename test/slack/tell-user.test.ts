import assert from 'node:assert/strict';
import { test } from 'node:test';
import { webApi } from '@slack/bolt';
import { createLogger } from '../../src/log/create-logger.js';
import { tellUser } from '../../src/slack/tell-user.js';

test('tellUser log-line forging: agent text goes in a field, not the message', async () => {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({
    level: 'debug',
    pretty: false,
    write: (line) => {
      for (const one of line.split('\n')) if (one) lines.push(JSON.parse(one));
    },
  });
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
