// Claude Code calling a real `o7-slack-relay hook` process: a permission prompt asked, the
// message it posts, and Deny… with a reason.
import path from 'node:path';
import { ACTION_KINDS, actionId, NOTE_INPUT } from '../../../src/core/slack/controls/ids.js';
import type { FakeSlack } from '../../support/fake-slack/index.js';
import { CHANNEL } from '../../support/relay-harness.js';
import { spawnRelay } from '../../support/spawn-relay.js';
import { waitFor } from '../../support/wait.js';
import { submitFormOf } from '../relay-steps.js';

/** A relay on another machine, as `hook --relay` reaches it: its URL and the token sent. */
export interface RemoteHookRelay {
  url: string;
  token: string;
  /** more of the hook's environment, e.g. NODE_EXTRA_CA_CERTS for a test certificate */
  env?: Record<string, string>;
}

/**
 * `o7-slack-relay hook` called as Claude Code calls it, by session `session` in `project`,
 * for the relay of state folder `where` (or the one at a URL); `call` holds the event's own
 * fields; `flags` come after the relay's.
 */
export function spawnHook(
  where: string | RemoteHookRelay,
  project: string,
  session: string,
  call: Record<string, unknown>,
  flags: readonly string[] = [],
) {
  const remote = typeof where === 'string' ? undefined : where;
  const relay = remote ? ['--relay', remote.url] : ['--state-dir', where as string];
  return spawnRelay(['hook', ...relay, ...flags], {
    env: remote ? { RELAY_TOKEN: remote.token, ...remote.env } : {},
    cwd: project,
    stdin: JSON.stringify({
      session_id: session,
      transcript_path: path.join(project, 'transcript.jsonl'),
      cwd: project,
      ...call,
    }),
  });
}

/**
 * A hook process asking the relay of `where` whether a session in `project` may run a
 * loopback curl (no permission suggestions, so no Always allow).
 */
export const askPermissionThroughHook = (
  where: string | RemoteHookRelay,
  project: string,
  tag: string,
  flags: readonly string[] = [],
) =>
  spawnHook(
    where,
    project,
    `session-${tag}`,
    {
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: { command: `curl -s -m 1 http://127.0.0.1:9/${tag}` },
    },
    flags,
  );

/** The first message in `channel` a hook posted: its header says "Claude Code …". */
export const hookPrompt = (slack: FakeSlack, channel = CHANNEL) =>
  waitFor(
    () =>
      slack
        .messages(channel)
        .find((m) => JSON.stringify(m.blocks[0] ?? {}).includes('"Claude Code')),
    `a hook's message in ${channel}`,
  );

/** Deny… on a prompt without Always allow (Allow, Deny…, Deny and stop): its form sent. */
export const denyWithReason = (slack: FakeSlack, ts: string, reason: string) =>
  submitFormOf(slack, ts, actionId(ACTION_KINDS.note, 0, 1), {
    [NOTE_INPUT.blockId]: { [NOTE_INPUT.actionId]: reason },
  });
