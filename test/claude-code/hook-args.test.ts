import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_WAIT_MS } from '../../src/claude-code/hook-args.js';
import { readCommandLine } from '../../src/cli/command-line.js';

describe('o7-slack-relay hook, its command line', () => {
  it("answers a hook, waiting just under Claude Code's 600 s unless --wait says otherwise", () => {
    assert.deepEqual(readCommandLine(['hook']), {
      command: 'hook',
      hook: { action: 'answer', waitMs: DEFAULT_WAIT_MS },
    });
    assert.ok(DEFAULT_WAIT_MS < 600_000);
    assert.deepEqual(readCommandLine(['hook', '--wait', '2m', '--state-dir', '/s']), {
      command: 'hook',
      hook: { action: 'answer', waitMs: 120_000, stateDir: '/s' },
    });
  });

  it('--relay names a relay on another machine, for the hook and for install; never beside --state-dir', () => {
    assert.deepEqual(readCommandLine(['hook', '--relay', 'https://r.example']), {
      command: 'hook',
      hook: { action: 'answer', waitMs: DEFAULT_WAIT_MS, relay: 'https://r.example' },
    });
    assert.deepEqual(readCommandLine(['hook', 'install', '--relay', 'https://r.example']), {
      command: 'hook',
      hook: {
        action: 'install',
        scope: 'user',
        print: false,
        notify: false,
        relay: 'https://r.example',
      },
    });
    const both = readCommandLine(['hook', 'install', '--relay', 'https://r', '--state-dir', '/s']);
    assert.equal(both.command, 'usage-error');
    assert.match(JSON.stringify(both), /--state-dir and --relay both say where to ask: pick one/);
  });

  it('reads install and uninstall with their scope', () => {
    assert.deepEqual(readCommandLine(['hook', 'install', '--project', '--print']), {
      command: 'hook',
      hook: { action: 'install', scope: 'project', print: true, notify: false },
    });
    assert.deepEqual(readCommandLine(['hook', 'uninstall']), {
      command: 'hook',
      hook: { action: 'uninstall', scope: 'user', print: false, notify: false },
    });
    assert.deepEqual(readCommandLine(['hook', 'install', '--notify']), {
      command: 'hook',
      hook: { action: 'install', scope: 'user', print: false, notify: true },
    });
  });

  it('turns a mistake in the hook itself into one line (exit 0), but not one in install (exit 2)', () => {
    const answering = readCommandLine(['hook', '--wait', 'soon']);
    assert.equal(answering.command, 'hook');
    assert.equal(answering.command === 'hook' && answering.hook.action, 'mistake');
    assert.equal(
      readCommandLine(['hook', 'install', '--user', '--project']).command,
      'usage-error',
    );
    const notifying = readCommandLine(['hook', '--notify']);
    assert.equal(notifying.command === 'hook' && notifying.hook.action, 'mistake');
  });
});
