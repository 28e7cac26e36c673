import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parse as parseDotenv } from 'dotenv';
import { askFolder, asksRoot } from '../../src/ask/ask-folder.js';
import { noticesDir } from '../../src/claude-code/idle-notices.js';
import { SERVICE_NODE_FLAGS } from '../../src/node-tuning.js';
import { needs, program } from '../support/preconditions.js';
import { REPO } from '../support/project-paths.js';
import { execWords, readServiceSection, UNIT_PATH } from './systemd-unit-file.js';

/** The shell block under a heading of docs/service.md, its commands each without `sudo`. */
function serviceDocCommands(heading: string): string[] {
  const doc = readFileSync(path.join(REPO, 'docs/service.md'), 'utf8');
  const from = doc.indexOf(`\n${heading}\n`);
  assert.ok(from >= 0, `docs/service.md has "${heading}"`);
  const block = /```sh\n([\s\S]*?)```/.exec(doc.slice(from))?.[1] ?? '';
  return block
    .split('\n')
    .flatMap((line) => line.replace(/\s+#.*$/, '').split('&&'))
    .map((command) => command.trim().replace(/^sudo /, ''))
    .filter(Boolean);
}

describe('the systemd unit', () => {
  const { text, service, one } = readServiceSection();

  // systemd is on every machine of this project (Debian's systemd 252); verify checks the
  // syntax, every key and value, and that the programs of ExecStart and ExecStartPre exist.
  test('passes systemd-analyze verify without a word', {
    ...needs(program('systemd-analyze', 'install systemd (apt-get install systemd)')),
  }, () => {
    const result = spawnSync('systemd-analyze', ['verify', '--man=no', UNIT_PATH], {
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
    assert.equal(one('Group'), one('User'), "the user's own group, whose members may ask");
    assert.match(one('WorkingDirectory'), /^\//);
    assert.match(one('EnvironmentFile'), /^\/\S+$/);
  });

  test('its comment builds the checkout the way docs/service.md does, which works', () => {
    // `npm ci --omit=dev && npm run build:package` fails: tsc is a dev dependency
    const said = /\((npm ci[^)]*)\)/.exec(text)?.[1];
    assert.ok(said, 'the unit says how to build the checkout');
    const commands = said.split('&&').map((c) => c.trim());
    const build = commands.indexOf('npm run build:package');
    assert.ok(build > 0, 'it builds');
    for (const command of commands.slice(0, build)) assert.doesNotMatch(command, /--omit=dev/);
    assert.ok(commands.slice(build + 1).includes('npm prune --omit=dev'), 'then drops dev deps');
    const documented = serviceDocCommands('## systemd');
    assert.ok(
      commands.every((c) => documented.includes(c)),
      `the documented systemd steps run ${commands.join(', ')}: ${documented.join(' | ')}`,
    );
    assert.ok(documented.indexOf('npm run build:package') > documented.indexOf('npm ci'));
  });

  test('restarts on failure, except after a configuration error (exit 2)', () => {
    assert.equal(one('Restart'), 'on-failure');
    assert.equal(one('RestartPreventExitStatus'), '2');
    const timeout = Number(one('TimeoutStopSec'));
    assert.ok(timeout > 5, 'longer than the 5 s the relay waits for work under way');
  });

  test('keeps the state in the folder systemd creates for it, which only the relay writes', () => {
    assert.equal(one('Environment'), `RELAY_STATE_DIR=/var/lib/${one('StateDirectory')}`);
    // its group may look in (ask reads the lock and the answers), nobody else
    assert.equal(one('StateDirectoryMode'), '0750');
    // the answer files the relay writes are readable by agents running as other users
    const umask = Number.parseInt(one('UMask'), 8);
    assert.equal(0o644 & ~umask, 0o644);
  });

  test("makes ask's folders and hook's notices folder writable by the group, setgid, at each start", () => {
    const stateDir = `/var/lib/${one('StateDirectory')}`;
    const words = execWords(one('ExecStartPre'), { RELAY_STATE_DIR: stateDir });
    // `install -d -m` makes the folders, or sets the mode of those already there
    const folders = [
      asksRoot(stateDir),
      path.dirname(askFolder(stateDir, 'id').stagingDir),
      noticesDir(stateDir),
    ];
    assert.deepEqual(words, ['/usr/bin/install', '-d', '-m', '2770', ...folders]);
    assert.equal(service.get('ExecStartPre')?.length, 1);
  });

  test('.env.example, copied to relay.env, leaves the state folder to the unit', () => {
    // set there, they would win over Environment= with paths relative to WorkingDirectory,
    // where the service's user may not write
    const example = parseDotenv(readFileSync(path.join(REPO, '.env.example'), 'utf8'));
    assert.equal(example.RELAY_STATE_DIR, undefined);
    assert.equal(example.RELAY_WATCH, undefined);
  });
});
