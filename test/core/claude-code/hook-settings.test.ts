import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  installRelayHooks,
  RELAY_HOOK_MARK,
  relayHookEntries,
  uninstallRelayHooks,
} from '../../../src/core/claude-code/hook-settings.js';

const COMMAND = 'node /opt/o7/bin/o7-slack-relay.js hook --state-dir /srv/state';
const theirs = {
  model: 'opus',
  permissions: { allow: ['Bash(ls)'] },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'lint.sh' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'notify.sh' }] }],
  },
};

const value = <T>(result: { ok: true; value: T } | { ok: false; error: string }): T => {
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.value;
};

describe('installRelayHooks', () => {
  it('adds the PreToolUse (AskUserQuestion) and PermissionRequest entries, keeping every other setting', () => {
    const { settings, changed } = value(installRelayHooks(theirs, COMMAND, 'settings.json'));
    assert.equal(changed, true);
    assert.equal(settings.model, 'opus');
    assert.deepEqual(settings.permissions, theirs.permissions);
    const hooks = settings.hooks as Record<string, unknown[]>;
    assert.deepEqual(hooks.Stop, theirs.hooks.Stop);
    assert.deepEqual(hooks.PreToolUse, [
      ...theirs.hooks.PreToolUse,
      ...relayHookEntries(COMMAND).PreToolUse,
    ]);
    assert.deepEqual(hooks.PermissionRequest, relayHookEntries(COMMAND).PermissionRequest);
    assert.ok(JSON.stringify(hooks).includes(`${COMMAND} ${RELAY_HOOK_MARK}`));
  });

  it('changes nothing the second time, and replaces an older entry of its own', () => {
    const once = value(installRelayHooks(theirs, COMMAND, 'f')).settings;
    assert.equal(value(installRelayHooks(once, COMMAND, 'f')).changed, false);
    const moved = value(installRelayHooks(once, 'node /new/o7-slack-relay.js hook', 'f')).settings;
    const commands = JSON.stringify(moved.hooks).match(new RegExp(RELAY_HOOK_MARK, 'g')) ?? [];
    assert.equal(commands.length, 2, 'one entry per event, not four');
  });

  it('refuses a file whose hooks it cannot read, saying how to fix it', () => {
    const result = installRelayHooks(
      { hooks: { PreToolUse: {} } },
      COMMAND,
      '/h/.claude/settings.json',
    );
    assert.deepEqual(result, {
      ok: false,
      error: '/h/.claude/settings.json: hooks.PreToolUse is not a list; fix it, then run again',
    });
    assert.equal(installRelayHooks([], COMMAND, 'f').ok, false);
  });
});

describe('uninstallRelayHooks', () => {
  it('takes out exactly what install added', () => {
    const installed = value(installRelayHooks(theirs, COMMAND, 'f')).settings;
    const { settings, changed } = value(uninstallRelayHooks(installed, 'f'));
    assert.equal(changed, true);
    assert.deepEqual(settings, theirs);
    assert.deepEqual(value(uninstallRelayHooks({}, 'f')), { settings: {}, changed: false });
  });

  it('removes the hooks key it leaves empty, and keeps a group shared with another hook', () => {
    const installed = value(installRelayHooks({}, COMMAND, 'f')).settings;
    assert.deepEqual(value(uninstallRelayHooks(installed, 'f')).settings, {});
    const shared = {
      hooks: {
        PermissionRequest: [
          {
            matcher: '*',
            hooks: [
              { type: 'command', command: 'audit.sh' },
              ...(relayHookEntries(COMMAND).PermissionRequest[0]?.hooks ?? []),
            ],
          },
        ],
      },
    };
    assert.deepEqual(value(uninstallRelayHooks(shared, 'f')).settings, {
      hooks: {
        PermissionRequest: [{ matcher: '*', hooks: [{ type: 'command', command: 'audit.sh' }] }],
      },
    });
  });
});
