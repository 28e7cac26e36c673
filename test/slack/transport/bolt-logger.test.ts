import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SDK_LOG_MESSAGE, toBoltLogger } from '../../../src/slack/transport/bolt-logger.js';
import { captureRelayLog } from '../../support/log-capture.js';

/** The relay's own logger (same redact paths) writing JSON lines into an array. */
function capture() {
  const { log, records: lines } = captureRelayLog();
  return { lines, bolt: toBoltLogger(log) };
}

test('bolt logger bypasses redaction: SDK objects are logged as objects and tokens redacted', () => {
  const { lines, bolt } = capture();
  bolt.debug({ token: 'xoxb-secret-1', channel: 'C1' });
  bolt.debug('http request', { headers: { authorization: 'Bearer xoxb-secret-2' } });
  assert.deepEqual(lines[0]?.args, [{ token: '[redacted]', channel: 'C1' }]);
  assert.equal(lines[0]?.msg, SDK_LOG_MESSAGE);
  assert.equal(lines[1]?.msg, 'http request');
  assert.deepEqual(lines[1]?.args, [{ headers: { authorization: '[redacted]' } }]);
  assert.doesNotMatch(JSON.stringify(lines), /xoxb-secret/);
});

test('bolt logger keeps Errors under err instead of {}', () => {
  const { lines, bolt } = capture();
  bolt.error('An unhandled error occurred', new Error('socket closed'));
  const line = lines[0] as { msg: string; err: { message: string; stack: string }; level: number };
  assert.equal(line.msg, 'An unhandled error occurred');
  assert.equal(line.err.message, 'socket closed');
  assert.match(line.err.stack, /socket closed/);
  assert.equal(line.level, 50);
});

test('bolt logger keeps plain string messages as the message, at each level', () => {
  const { lines, bolt } = capture();
  bolt.info('Now connected to Slack');
  bolt.warn('retrying', 'in 2s');
  assert.equal(lines[0]?.msg, 'Now connected to Slack');
  assert.equal(lines[0]?.args, undefined);
  assert.equal(lines[0]?.level, 30);
  assert.equal(lines[1]?.msg, 'retrying in 2s');
  assert.equal(lines[1]?.level, 40);
});
