import type { BatchOrigin } from '../protocol/questions/batch-origin.js';
import type { HookInput } from './hook-input.js';
import { maskSecrets } from './mask-secrets.js';

/** How much of a session id is shown: enough to tell two sessions apart. */
const SESSION_SHOWN = 8;

/** A session (or subagent) id as Slack shows it: its first characters. */
export const shownId = (id: string): string => id.slice(0, SESSION_SHOWN);

/**
 * The line under a hook batch's title: the project (Claude Code's `cwd`), the session, the
 * subagent when a subagent asked, and the tool; so people who answer for several sessions
 * know which one waits.
 */
export function hookOrigin(input: HookInput, title: string, tool?: string): BatchOrigin {
  const subagent =
    input.agent_id !== undefined
      ? `subagent ${input.agent_type ?? 'agent'} (${shownId(input.agent_id)})`
      : undefined;
  const parts = [
    `project ${input.cwd}`,
    `session ${shownId(input.session_id)}`,
    ...(subagent ? [subagent] : []),
    ...(tool ? [`tool ${tool}`] : []),
  ];
  return {
    title: maskSecrets(title).text,
    detail: maskSecrets(parts.join(' · ')).text,
    project: input.cwd,
    inTerminal: true,
  };
}
