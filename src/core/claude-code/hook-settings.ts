import { err, ok, type Result } from '../result.js';

/** Claude Code's own limit for a command hook without a `timeout`; `hook` waits just under it. */
export const HOOK_TIMEOUT_S = 600;

/** The events `hook install` registers, each with the matcher it needs. */
export const HOOK_MATCHERS = {
  // asked before the tool runs: the terminal shows nothing while Slack is asked
  PreToolUse: 'AskUserQuestion',
  // every tool's permission dialog; the hook leaves AskUserQuestion's to the PreToolUse hook
  PermissionRequest: '*',
} as const;

/** One command hook as Claude Code's settings hold it. */
interface CommandHook {
  type: 'command';
  command: string;
  timeout: number;
}

/**
 * Ends every command `hook install` writes (a shell comment), so uninstall finds exactly its
 * own entries wherever the relay was installed.
 */
export const RELAY_HOOK_MARK = '# o7-slack-relay hook';

/** Whether a settings hook is one `hook install` wrote. */
export const isRelayHook = (hook: unknown): boolean => {
  const command = (hook as { command?: unknown } | null)?.command;
  return typeof command === 'string' && command.trimEnd().endsWith(RELAY_HOOK_MARK);
};

/** The event `hook install --notify` adds: Claude Code's "waiting for your input". */
export const IDLE_MATCHER = { Notification: 'idle_prompt' } as const;

/** What `hook install` was asked for besides the command. */
export interface HookEntryOptions {
  /** Also tell Slack when Claude waits for the person (`--notify`). */
  notify?: boolean;
}

/** One matcher's hooks, as an event's list in Claude Code's settings holds them. */
type HookGroup = { matcher: string; hooks: CommandHook[] };

/** The `hooks` entries `hook install` adds, by event: what `--print` shows. */
export function relayHookEntries(command: string, options: HookEntryOptions = {}) {
  const hook: CommandHook = {
    type: 'command',
    command: `${command} ${RELAY_HOOK_MARK}`,
    timeout: HOOK_TIMEOUT_S,
  };
  const matchers = { ...HOOK_MATCHERS, ...(options.notify ? IDLE_MATCHER : {}) };
  return Object.fromEntries(
    Object.entries(matchers).map(([event, matcher]) => [event, [{ matcher, hooks: [hook] }]]),
  ) as Record<keyof typeof HOOK_MATCHERS, HookGroup[]> &
    Partial<Record<keyof typeof IDLE_MATCHER, HookGroup[]>>;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A settings file's content with its `hooks` read, or why it cannot be changed safely. */
function readHooks(
  settings: unknown,
  file: string,
): Result<{ settings: Json; hooks: Json }, string> {
  if (!isObject(settings))
    return err(`${file} does not hold a JSON object; fix or move it, then run again`);
  const hooks = settings.hooks ?? {};
  if (!isObject(hooks)) return err(`${file}: "hooks" is not an object; fix it, then run again`);
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups))
      return err(`${file}: hooks.${event} is not a list; fix it, then run again`);
  }
  return ok({ settings, hooks });
}

/** Each event's groups with the relay's own hooks taken out, and groups left empty dropped. */
function withoutRelayHooks(hooks: Json): { hooks: Json; removed: number } {
  let removed = 0;
  const kept: Json = {};
  for (const [event, groups] of Object.entries(hooks)) {
    const left = (groups as unknown[]).flatMap((group) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return [group];
      const others = group.hooks.filter((hook) => !isRelayHook(hook));
      removed += group.hooks.length - others.length;
      if (others.length === group.hooks.length) return [group];
      return others.length === 0 ? [] : [{ ...group, hooks: others }];
    });
    if (left.length > 0) kept[event] = left;
  }
  return { hooks: kept, removed };
}

/** What a change to a settings file comes to. */
export interface SettingsChange {
  settings: Json;
  /** false when the file already held exactly this: nothing to write */
  changed: boolean;
}

/**
 * The settings with the relay's hook entries in: every other setting and hook kept, an older
 * entry of ours (another path, say) replaced, nothing changed when they are already there.
 */
export function installRelayHooks(
  settings: unknown,
  command: string,
  file: string,
  options: HookEntryOptions = {},
): Result<SettingsChange, string> {
  const read = readHooks(settings, file);
  if (!read.ok) return read;
  const { hooks } = withoutRelayHooks(read.value.hooks);
  for (const [event, groups] of Object.entries(relayHookEntries(command, options))) {
    hooks[event] = [...((hooks[event] as unknown[] | undefined) ?? []), ...groups];
  }
  const next = { ...read.value.settings, hooks };
  return ok({ settings: next, changed: JSON.stringify(next) !== JSON.stringify(settings) });
}

/** The settings with exactly the relay's hook entries taken out (and `hooks` if left empty). */
export function uninstallRelayHooks(
  settings: unknown,
  file: string,
): Result<SettingsChange, string> {
  const read = readHooks(settings, file);
  if (!read.ok) return read;
  const { hooks, removed } = withoutRelayHooks(read.value.hooks);
  if (removed === 0) return ok({ settings: read.value.settings, changed: false });
  const { hooks: _old, ...rest } = read.value.settings;
  return ok({ settings: Object.keys(hooks).length > 0 ? { ...rest, hooks } : rest, changed: true });
}
