// `o7-slack-relay hook` as Claude Code runs it, a real process: whatever goes wrong it prints no
// decision, one line on stderr, and exits 0 (Claude Code reads 2 as "block the tool").
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { spawnRelay } from '../support/spawn-relay.js';
import { makeTempDir } from '../support/temp-dir.js';

async function hook(stdin: string, args: string[] = []) {
  const { dir, cleanup } = await makeTempDir('o7-hook-');
  try {
    const proc = spawnRelay(['hook', '--state-dir', path.join(dir, 'state'), ...args], {
      env: {},
      cwd: dir,
      stdin,
    });
    const { code } = await proc.exited;
    return { code, stdout: proc.stdout(), stderr: proc.stderr() };
  } finally {
    await cleanup();
  }
}

const call = {
  session_id: 's',
  transcript_path: '/t',
  cwd: '/p',
  hook_event_name: 'PermissionRequest',
  tool_name: 'Bash',
  tool_input: { command: 'curl http://127.0.0.1:9/' },
};

describe('o7-slack-relay hook, the process', () => {
  for (const [what, stdin, said] of [
    ['stdin that is not JSON', 'not json {', /stdin is not JSON/],
    [
      'an event it does not answer',
      JSON.stringify({ ...call, hook_event_name: 'Stop' }),
      /does not answer Stop hooks/,
    ],
    ['a call missing a field', JSON.stringify({ ...call, cwd: undefined }), /does not fit \(cwd:/],
    ['no relay running', JSON.stringify(call), /no relay is running for .*state/],
  ] as const) {
    it(`${what}: no decision, one line on stderr, exit 0`, async () => {
      const { code, stdout, stderr } = await hook(stdin);
      assert.equal(code, 0);
      assert.equal(stdout, '');
      assert.match(stderr, said);
      assert.match(stderr, /no decision, so Claude Code asks in the terminal\.\n$/);
      assert.equal(stderr.trim().split('\n').length, 1, stderr);
    });
  }

  it('an idle_prompt notification with no relay running: one line saying nobody is told, exit 0', async () => {
    const idle = { ...call, hook_event_name: 'Notification', message: 'Claude is waiting' };
    const { code, stdout, stderr } = await hook(
      JSON.stringify({ ...idle, notification_type: 'idle_prompt' }),
    );
    assert.deepEqual([code, stdout], [0, '']);
    assert.match(
      stderr,
      /^o7-slack-relay hook: no relay is running for .*state, so nobody is told in Slack/,
    );
    assert.equal(stderr.trim().split('\n').length, 1, stderr);
  });

  it('a usage mistake: one line, exit 0', async () => {
    const { code, stdout, stderr } = await hook('{}', ['--wait', 'soon']);
    assert.deepEqual([code, stdout], [0, '']);
    assert.match(stderr, /--wait .*no decision/);
  });
});
