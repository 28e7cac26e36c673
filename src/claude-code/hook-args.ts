import { RELAY_URL_OPTION } from '../ask/choose-asker.js';
import type { ReadOptions } from '../cli/read-options.js';
import { parseDuration } from '../config/parse-duration.js';
import { err, ok, type Result } from '../core/result.js';

/**
 * How long `hook` waits for Slack unless told: just under the 600 s Claude Code gives a hook
 * without a `timeout`, so the hook ends on its own terms (the batch withdrawn, the terminal
 * asking) before Claude Code kills it.
 */
export const DEFAULT_WAIT_MS = 590_000;

/** Where `hook install` writes: the user's settings or this project's local settings. */
export type HookScope = 'user' | 'project';

/** `hook`'s command line, read. */
export type HookArgs =
  | { action: 'answer'; waitMs: number; stateDir?: string; relay?: string }
  | {
      action: 'install' | 'uninstall';
      scope: HookScope;
      print: boolean;
      /** `--notify`: also the Notification hook, so Slack hears when Claude waits */
      notify: boolean;
      stateDir?: string;
      /** `--relay URL`: the hooks ask the relay there (with `RELAY_TOKEN`) */
      relay?: string;
    };

/** The options `hook` takes besides `--help`. */
export const HOOK_OPTIONS = {
  wait: { type: 'string' },
  'state-dir': { type: 'string' },
  ...RELAY_URL_OPTION,
  user: { type: 'boolean' },
  project: { type: 'boolean' },
  print: { type: 'boolean' },
  notify: { type: 'boolean' },
} as const;

type HookOptions = Extract<ReadOptions<typeof HOOK_OPTIONS>, { kind: 'read' }>;

/** Checks what `readOptions` read for `hook` and puts it into `HookArgs`. */
export function toHookArgs({ values, positionals }: HookOptions): Result<HookArgs, string> {
  const [action, ...extra] = positionals;
  if (extra.length > 0) return err(`takes at most one action, got ${positionals.join(' ')}`);
  const { 'state-dir': stateDir, relay } = values;
  if (stateDir !== undefined && relay !== undefined)
    return err('--state-dir and --relay both say where to ask: pick one');
  const where = {
    ...(stateDir !== undefined ? { stateDir } : {}),
    ...(relay !== undefined ? { relay } : {}),
  };
  if (action === undefined) {
    if (values.user || values.project || values.print || values.notify) {
      return err('--user, --project, --print and --notify go with install or uninstall');
    }
    if (values.wait === undefined)
      return ok({ action: 'answer', waitMs: DEFAULT_WAIT_MS, ...where });
    const ms = parseDuration(values.wait);
    if (!ms.ok) return err(`--wait ${ms.error}`);
    return ok({ action: 'answer', waitMs: ms.value, ...where });
  }
  if (action !== 'install' && action !== 'uninstall') {
    return err(
      `unknown action ${action} (expected install or uninstall, or none to answer a hook)`,
    );
  }
  if (values.wait !== undefined) return err('--wait goes with the hook itself, not with install');
  if (values.user && values.project) return err('--user and --project: pick one');
  return ok({
    action,
    scope: values.project ? 'project' : 'user',
    print: values.print === true,
    notify: values.notify === true,
    ...where,
  });
}
