import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { SERVICE_NODE_FLAGS } from '../../src/service-node-flags.js';
import { REPO } from '../support/project-paths.js';

const unitPath = path.join(REPO, 'deploy', 'o7-slack-relay.service');

/** The `Key=value` settings of one section of a unit file, each key with all its values. */
function sectionOf(text: string, name: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let inside = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) inside = line === `[${name}]`;
    else if (inside && line !== '' && !line.startsWith('#')) {
      const at = line.indexOf('=');
      const key = line.slice(0, at);
      settings.set(key, [...(settings.get(key) ?? []), line.slice(at + 1)]);
    }
  }
  return settings;
}

describe('the systemd unit', () => {
  const text = readFileSync(unitPath, 'utf8');
  const service = sectionOf(text, 'Service');
  const one = (key: string) => {
    const values = service.get(key) ?? [];
    assert.equal(values.length, 1, `one ${key}=`);
    return values[0] as string;
  };

  // systemd is on every machine of this project (Debian's systemd 252); verify checks the
  // syntax, every key and value, and that ExecStart's program exists.
  test('passes systemd-analyze verify without a word', () => {
    const result = spawnSync('systemd-analyze', ['verify', '--man=no', unitPath], {
      encoding: 'utf8',
    });
    assert.equal(result.error, undefined, 'systemd-analyze runs (apt-get install systemd)');
    assert.equal(result.stderr + result.stdout, '');
    assert.equal(result.status, 0);
  });

  test('runs the relay as its own user from its folder, with an environment file', () => {
    const [node, ...args] = one('ExecStart').split(' ');
    assert.match(node ?? '', /^\/\S+\/node$/);
    assert.deepEqual(args, [...SERVICE_NODE_FLAGS, 'dist/src/main.js', 'start']);
    assert.notEqual(one('User'), 'root');
    assert.match(one('WorkingDirectory'), /^\//);
    assert.match(one('EnvironmentFile'), /^\/\S+$/);
  });

  test('restarts on failure, except after a configuration error (exit 2)', () => {
    assert.equal(one('Restart'), 'on-failure');
    assert.equal(one('RestartPreventExitStatus'), '2');
    const timeout = Number(one('TimeoutStopSec'));
    assert.ok(timeout > 5, 'longer than the 5 s the relay waits for work under way');
  });

  test('keeps the state in the folder systemd creates for it', () => {
    assert.equal(one('Environment'), `RELAY_STATE_DIR=/var/lib/${one('StateDirectory')}`);
  });
});
