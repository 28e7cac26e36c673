import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  missingServiceFlags,
  SERVICE_NODE_FLAGS,
  START_WITH_SERVICE_FLAGS,
} from '../../src/service-node-flags.js';
import { REPO } from '../support/project-paths.js';
import { relayProcessPerTest, spawnRelayFor } from '../support/spawn-relay.js';

/** The relay's log lines that name the service flags node was started without. */
const flagsLines = (logs: readonly Record<string, unknown>[]) =>
  logs.filter((line) => 'missingNodeFlags' in line);

describe('the node flags of the service', () => {
  const fx = relayProcessPerTest('o7-node-flags-');

  test('are the ones missing from an argv without them, and none from one with them', () => {
    assert.deepEqual(missingServiceFlags([]), [...SERVICE_NODE_FLAGS]);
    assert.deepEqual(missingServiceFlags(['--enable-source-maps', ...SERVICE_NODE_FLAGS]), []);
    assert.deepEqual(missingServiceFlags(SERVICE_NODE_FLAGS.slice(1)), [SERVICE_NODE_FLAGS[0]]);
    const otherValue = SERVICE_NODE_FLAGS.map((f) =>
      f.includes('=') ? `${f.split('=')[0]}=7` : f,
    );
    assert.deepEqual(missingServiceFlags(otherValue), [], 'another value is a choice');
  });

  test('npm start passes them to node, which runs the o7-slack-relay command in its own process', () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    assert.deepEqual(pkg.scripts.start.split(' '), [
      'node',
      ...SERVICE_NODE_FLAGS,
      pkg.bin['o7-slack-relay'],
      'start',
    ]);
  });

  test('a relay started without them says which it lacks, once, and runs', async () => {
    fx.relay = spawnRelayFor(fx.slack, fx.root, { logLevel: 'info' });
    await fx.relay.waitForLog('relay ready');
    const lines = flagsLines(fx.relay.logs);
    assert.equal(lines.length, 1);
    assert.deepEqual(lines[0]?.missingNodeFlags, [...SERVICE_NODE_FLAGS]);
    assert.equal(lines[0]?.level, 30, 'info: the relay works either way');
    assert.match(String(lines[0]?.msg), /npm start, the Docker image and the systemd unit/);
    assert.equal(lines[0]?.startWith, START_WITH_SERVICE_FLAGS);
    assert.match(START_WITH_SERVICE_FLAGS, /^node --no-memory-reducer .* start$/);
  });

  test('a relay started with them says nothing about them', async () => {
    fx.relay = spawnRelayFor(fx.slack, fx.root, {
      logLevel: 'info',
      nodeFlags: SERVICE_NODE_FLAGS,
    });
    await fx.relay.waitForLog('relay ready');
    assert.deepEqual(flagsLines(fx.relay.logs), []);
  });
});
