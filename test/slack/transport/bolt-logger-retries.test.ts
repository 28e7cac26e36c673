import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toBoltLogger } from '../../../src/slack/transport/bolt-logger.js';
import { captureLog } from '../../support/log-capture.js';

function capture() {
  const { log, records: lines } = captureLog('debug');
  return { lines, bolt: toBoltLogger(log) };
}

test('what the SDK logs at each attempt it retries by itself is a debug line, not a warning', () => {
  const { lines, bolt } = capture();
  bolt.warn('http request failed', 'connect ECONNREFUSED 127.0.0.1:443');
  bolt.error(
    'Failed to retrieve a new WSS URL (error: Error: An API error occurred: internal_error)',
  );
  bolt.error('WebSocket error occurred: getaddrinfo ENOTFOUND wss-primary.slack.com');
  bolt.error('WebSocket error! Error: socket hang up');
  bolt.warn('Peer did not complete the close handshake in time; forcing cleanup.');
  assert.deepEqual(
    lines.map((l) => l.level),
    [20, 20, 20, 20, 20],
  );
  assert.equal(lines[0]?.msg, 'http request failed connect ECONNREFUSED 127.0.0.1:443');
});

test('other warnings and errors keep their level', () => {
  const { lines, bolt } = capture();
  bolt.warn('The logLevel given to Socket Mode was ignored');
  bolt.error('An unhandled error occurred while Bolt processed an event', new Error('boom'));
  assert.deepEqual(
    lines.map((l) => l.level),
    [40, 50],
  );
});
