import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { resolveStateDir, stateDirEnvSchema } from '../config/config-schema.js';
import {
  installRelayHooks,
  relayHookEntries,
  uninstallRelayHooks,
} from '../core/claude-code/hook-settings.js';
import { errnoCode } from '../fs/errno.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import type { HookArgs } from './hook-args.js';

/** What `hook install` needs from its process; tests pass their own. */
export interface HookInstallDeps {
  env: Record<string, string | undefined>;
  cwd: string;
  out: (line: string) => void;
  err: (line: string) => void;
  /** How this program is started again: node and its script (default: this process's). */
  program?: readonly string[];
}

/** A word for `sh -c`, quoted so spaces and quotes in paths stay one argument. */
const shellWord = (word: string): string =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;

/** The settings file of a scope: the user's, or this project's local one (not committed). */
export function settingsFile(
  scope: 'user' | 'project',
  env: HookInstallDeps['env'],
  cwd: string,
): string {
  return scope === 'user'
    ? path.join(env.HOME ?? '~', '.claude', 'settings.json')
    : path.join(cwd, '.claude', 'settings.local.json');
}

/**
 * `o7-slack-relay hook install|uninstall`: merges the relay's hook entries into a Claude Code
 * settings file (or takes exactly them out), keeping everything else and writing a backup of
 * the file first; `--print` only shows the entries. Returns the exit code.
 */
export async function runHookInstall(
  args: Extract<HookArgs, { action: 'install' | 'uninstall' }>,
  deps: HookInstallDeps,
): Promise<number> {
  const stateDir = resolveStateDir(
    args.stateDir ?? stateDirEnvSchema.parse(deps.env).RELAY_STATE_DIR,
    deps.cwd,
  );
  const program = deps.program ?? [process.execPath, process.argv[1] ?? 'o7-slack-relay'];
  // the token is not written here: the hook reads RELAY_TOKEN from Claude Code's environment
  const where = args.relay !== undefined ? ['--relay', args.relay] : ['--state-dir', stateDir];
  const command = [...program, 'hook', ...where].map(shellWord).join(' ');
  if (args.print) {
    deps.out(JSON.stringify({ hooks: relayHookEntries(command, args) }, null, 2));
    return 0;
  }
  const file = settingsFile(args.scope, deps.env, deps.cwd);
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
  let settings: unknown = {};
  if (text !== undefined && text.trim() !== '') {
    try {
      settings = JSON.parse(text);
    } catch (error) {
      deps.err(
        `${file} is not JSON (${(error as Error).message}); fix it, then run again. Nothing was changed.`,
      );
      return 1;
    }
  }
  const change =
    args.action === 'install'
      ? installRelayHooks(settings, command, file, args)
      : uninstallRelayHooks(settings, file);
  if (!change.ok) {
    deps.err(`${change.error}. Nothing was changed.`);
    return 1;
  }
  if (!change.value.changed) {
    deps.out(
      `${file} already ${args.action === 'install' ? 'has the relay hooks' : 'has no relay hooks'}; nothing changed.`,
    );
    return 0;
  }
  await mkdir(path.dirname(file), { recursive: true });
  if (text !== undefined) {
    const backup = `${file}.o7-backup`;
    await copyFile(file, backup);
    deps.out(`Backup of the previous settings: ${backup}`);
  }
  await writeFileAtomic(file, `${JSON.stringify(change.value.settings, null, 2)}\n`);
  deps.out(
    args.action === 'install'
      ? `Added the relay hooks (PreToolUse for AskUserQuestion, PermissionRequest${args.notify ? ', Notification for idle_prompt' : ''}) to ${file}; they ask ${args.relay !== undefined ? `the relay at ${args.relay}, with the RELAY_TOKEN Claude Code is started with` : `the relay of ${stateDir}`}.`
      : `Removed the relay hooks from ${file}.`,
  );
  return 0;
}
