// Claude Code calling a real `o7-slack-relay hook` process: a permission prompt asked, the
// message it posts, and Deny… with a reason.
import path from 'node:path';
import { ACTION_KINDS, actionId, NOTE_INPUT } from '../../../src/core/slack/controls/ids.js';
import type { FakeSlack } from '../../support/fake-slack/index.js';
import { CHANNEL } from '../../support/relay-harness.js';
import { spawnRelay } from '../../support/spawn-relay.js';
import { waitFor } from '../../support/wait.js';
import { submitFormOf } from '../relay-steps.js';

/**
 * `o7-slack-relay hook` called as Claude Code calls it, by session `session` in `project`,
 * for the relay of `stateDir`; `call` holds the event's own fields.
 */
export function spawnHook(
  stateDir: string,
  project: string,
  session: string,
  call: Record<string, unknown>,
) {
  return spawnRelay(['hook', '--state-dir', stateDir], {
    env: {},
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
 * A hook process asking the relay of `stateDir` whether a session in `project` may run a
 * loopback curl (no permission suggestions, so no Always allow).
 */
export const askPermissionThroughHook = (stateDir: string, project: string, tag: string) =>
  spawnHook(stateDir, project, `session-${tag}`, {
    hook_event_name: 'PermissionRequest',
    tool_name: 'Bash',
    tool_input: { command: `curl -s -m 1 http://127.0.0.1:9/${tag}` },
  });

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
