import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { runHookInstall, settingsFile } from '../../src/claude-code/install-hook.js';
import { makeTempDir } from '../support/temp-dir.js';

async function inProject(
  fn: (
    dir: string,
    run: (
      action: 'install' | 'uninstall',
      notify?: boolean,
    ) => Promise<{ code: number; out: string[]; err: string[] }>,
  ) => Promise<void>,
) {
  const { dir, cleanup } = await makeTempDir('o7-hook-install-');
  try {
    const run = async (action: 'install' | 'uninstall', notify = false) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runHookInstall(
        { action, scope: 'project', print: false, notify, stateDir: '/srv/state' },
        {
          env: { HOME: dir },
          cwd: dir,
          out: (l) => out.push(l),
          err: (l) => err.push(l),
          program: ['node', '/opt/o7 relay/bin/o7-slack-relay.js'],
        },
      );
      return { code, out, err };
    };
    await fn(dir, run);
  } finally {
    await cleanup();
  }
}

describe('hook install and uninstall, on a real settings file', () => {
  it('with --relay the hooks ask the relay at that URL; the token is not written', async () => {
    const { dir, cleanup } = await makeTempDir('o7-hook-install-');
    try {
      const out: string[] = [];
      const code = await runHookInstall(
        {
          action: 'install',
          scope: 'project',
          print: false,
          notify: false,
          relay: 'https://r.example:8443',
        },
        {
          env: { HOME: dir, RELAY_TOKEN: 'secret-token-value-0123456789abcdef' },
          cwd: dir,
          out: (l) => out.push(l),
          err: () => undefined,
          program: ['node', '/opt/relay.js'],
        },
      );
      assert.equal(code, 0);
      assert.match(
        out.join('\n'),
        /they ask the relay at https:\/\/r\.example:8443, with the RELAY_TOKEN Claude Code is started with/,
      );
      const text = await readFile(settingsFile('project', {}, dir), 'utf8');
      assert.match(
        JSON.parse(text).hooks.PermissionRequest[0].hooks[0].command,
        /^node \/opt\/relay\.js hook --relay https:\/\/r\.example:8443 # o7-slack-relay hook$/,
      );
      assert.ok(!text.includes('secret-token-value'));
    } finally {
      await cleanup();
    }
  });

  it('with --notify also adds the Notification hook for idle_prompt, which uninstall takes out too', async () => {
    await inProject(async (dir, run) => {
      const file = settingsFile('project', {}, dir);
      const { out } = await run('install', true);
      assert.match(out.join('\n'), /Notification for idle_prompt/);
      const installed = JSON.parse(await readFile(file, 'utf8'));
      assert.equal(installed.hooks.Notification[0].matcher, 'idle_prompt');
      assert.match(
        installed.hooks.Notification[0].hooks[0].command,
        /hook --state-dir \/srv\/state/,
      );
      assert.equal((await run('install')).code, 0, 'installed again without it');
      assert.equal(JSON.parse(await readFile(file, 'utf8')).hooks.Notification, undefined);
      await run('install', true);
      await run('uninstall');
      assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), {});
    });
  });

  it('merges into .claude/settings.local.json with a backup, is idempotent, and uninstall restores it', async () => {
    await inProject(async (dir, run) => {
      const file = settingsFile('project', {}, dir);
      await mkdir(path.dirname(file), { recursive: true });
      const before = `${JSON.stringify({ permissions: { allow: ['Bash(ls)'] } }, null, 2)}\n`;
      await writeFile(file, before);
      assert.equal((await run('install')).code, 0);
      const installed = JSON.parse(await readFile(file, 'utf8'));
      assert.deepEqual(installed.permissions, { allow: ['Bash(ls)'] });
      assert.match(
        installed.hooks.PermissionRequest[0].hooks[0].command,
        /^node '\/opt\/o7 relay\/bin\/o7-slack-relay\.js' hook --state-dir \/srv\/state # o7-slack-relay hook$/,
      );
      assert.equal(await readFile(`${file}.o7-backup`, 'utf8'), before);
      const again = await run('install');
      assert.match(again.out.join('\n'), /already has the relay hooks; nothing changed/);
      assert.equal((await run('uninstall')).code, 0);
      assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), JSON.parse(before));
    });
  });

  it('changes nothing in a file that is not JSON, and says so', async () => {
    await inProject(async (dir, run) => {
      const file = settingsFile('project', {}, dir);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, '{ broken');
      const { code, err } = await run('install');
      assert.equal(code, 1);
      assert.match(err.join('\n'), /is not JSON .*Nothing was changed/);
      assert.equal(await readFile(file, 'utf8'), '{ broken');
    });
  });
});
