import { readAskAnswers } from '../ask/ask-answers.js';
import type { Asker, AskingProcess, RelayAsk } from '../ask/ask-relay.js';
import { type AskTarget, askerFor, chooseTarget } from '../ask/choose-asker.js';
import { findRunningRelay } from '../ask/find-running-relay.js';
import { leaveRemoteNotice } from '../ask/remote-asker.js';
import {
  askUserQuestionSchema,
  type HookInput,
  hookInputSchema,
  type PermissionRequestInput,
  type PreToolUseInput,
} from '../core/claude-code/hook-input.js';
import {
  PERMISSION_QUESTION_ID,
  permissionHookBatch,
  permissionHookOutput,
} from '../core/claude-code/permission-hook.js';
import { questionHookBatch, questionHookOutput } from '../core/claude-code/question-hook.js';
import { describeIssues } from '../core/zod-issues.js';
import type { HookArgs } from './hook-args.js';
import { leaveIdleNotice } from './idle-notices.js';

/** What `hook` needs from its process (Claude Code closes stdin at once). */
export type HookDeps = AskingProcess;

/** The one line `hook` writes when it leaves the decision to the terminal. */
const noDecision = (why: string) =>
  `o7-slack-relay hook: ${why}; no decision, so Claude Code asks in the terminal.`;

/**
 * `o7-slack-relay hook`: answers one Claude Code hook call from Slack. Reads the call from
 * stdin, puts AskUserQuestion (PreToolUse) or the permission prompt (PermissionRequest) to
 * people through the running relay, waits, and prints the decision. Anything else (no relay,
 * bad input, no answer in time, stopped) prints no decision and one line on stderr: Claude
 * Code then asks in the terminal. It never allows by default, and never throws.
 */
export async function runHook(
  args: Extract<HookArgs, { action: 'answer' }>,
  deps: HookDeps,
): Promise<void> {
  try {
    const line = await answerHook(args, deps);
    if (line !== undefined) deps.err(line);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    deps.err(noDecision(`the relay could not be asked (${reason.split('\n')[0]})`));
  }
}

async function answerHook(
  args: Extract<HookArgs, { action: 'answer' }>,
  deps: HookDeps,
): Promise<string | undefined> {
  const text = await deps.readStdin();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return noDecision(
      `stdin is not JSON (${text.trim() === '' ? 'it is empty' : `${text.length} characters`}); expected the hook call Claude Code writes`,
    );
  }
  const parsed = hookInputSchema.safeParse(json);
  if (!parsed.success) {
    const event = (json as { hook_event_name?: unknown } | null)?.hook_event_name;
    return noDecision(
      typeof event === 'string' &&
        !['PreToolUse', 'PermissionRequest', 'Notification'].includes(event)
        ? `it does not answer ${event} hooks (only PreToolUse for AskUserQuestion and PermissionRequest)`
        : `the hook call on stdin does not fit (${describeIssues(parsed.error)})`,
    );
  }
  const input: HookInput = parsed.data;
  const target = chooseTarget(args, deps.env, deps.cwd);
  if (!target.ok) return noDecision(target.error);
  const asker = askerFor(target.value, deps.err);
  switch (input.hook_event_name) {
    case 'PreToolUse':
      // only AskUserQuestion is answered before it runs; other tools ask permission later
      return input.tool_name === 'AskUserQuestion'
        ? askQuestions(input, asker, args, deps)
        : undefined;
    case 'PermissionRequest':
      // AskUserQuestion's own prompt is its questions, answered by the PreToolUse hook
      return input.tool_name === 'AskUserQuestion'
        ? undefined
        : askPermission(input, asker, args, deps);
    case 'Notification':
      // only "Claude is waiting for your input" is told in Slack; the rest stays in the terminal
      return input.notification_type === 'idle_prompt' ? tellIdle(input, target.value) : undefined;
  }
}

/** Leaves the relay a notice that Claude waits for the person; a line when none runs. */
async function tellIdle(
  input: Extract<HookInput, { hook_event_name: 'Notification' }>,
  target: AskTarget,
): Promise<string | undefined> {
  const notice = { project: input.cwd, session: input.session_id, message: input.message };
  if (target.kind === 'remote') {
    const problem = await leaveRemoteNotice(target.relay, notice);
    return (
      problem && `o7-slack-relay hook: ${problem}, so nobody is told in Slack that Claude waits.`
    );
  }
  const { stateDir } = target;
  if ((await findRunningRelay(stateDir)) === undefined)
    return `o7-slack-relay hook: no relay is running for ${stateDir}, so nobody is told in Slack that Claude waits (start one with o7-slack-relay start, or pass --state-dir).`;
  await leaveIdleNotice(stateDir, notice);
  return undefined;
}

const ask = (
  asker: Asker,
  batch: object & { seq: number; questions: readonly object[] },
  args: { waitMs: number },
  deps: HookDeps,
) =>
  asker({
    batch,
    timeoutMs: args.waitMs,
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(deps.pollMs !== undefined ? { pollMs: deps.pollMs } : {}),
  });

/** Why an ask ended without an answer, or the answer file's text. */
function answerText(outcome: RelayAsk, waitMs: number): { text: string } | { line: string } {
  switch (outcome.kind) {
    case 'no-relay':
      return {
        line: noDecision(
          `no relay is running for ${outcome.stateDir} (start one with o7-slack-relay start, or pass --state-dir)`,
        ),
      };
    case 'refused':
      return { line: noDecision(outcome.reason.split('\n')[0] ?? outcome.reason) };
    case 'answered':
      return { text: outcome.text };
    case 'cancelled':
      return { line: noDecision('the question was cancelled in Slack') };
    case 'timed-out':
      return {
        line: noDecision(
          `nobody answered in Slack within ${Math.round(waitMs / 1000)} s; the message there is closed`,
        ),
      };
    case 'aborted':
      return {
        line: noDecision(
          `stopped (${outcome.reason}): answered or dismissed in the terminal, or Claude Code went away; the message in Slack is closed`,
        ),
      };
  }
}

/** The answer file read against its batch; a line when it cannot be. */
function readAnswers(outcome: Extract<RelayAsk, { kind: 'answered' }>) {
  const read = readAskAnswers(outcome);
  return read.ok ? read.value : { line: noDecision(read.error.split('\n')[0] ?? read.error) };
}

async function askQuestions(
  input: PreToolUseInput,
  asker: Asker,
  args: { waitMs: number },
  deps: HookDeps,
) {
  const questions = askUserQuestionSchema.safeParse(input.tool_input);
  if (!questions.success)
    return noDecision(
      `AskUserQuestion's tool_input does not fit (${describeIssues(questions.error)})`,
    );
  const outcome = await ask(asker, questionHookBatch(input, questions.data), args, deps);
  const got = answerText(outcome, args.waitMs);
  if ('line' in got || outcome.kind !== 'answered') return 'line' in got ? got.line : undefined;
  const read = readAnswers(outcome);
  if ('line' in read) return read.line;
  const output = questionHookOutput(
    input.tool_input as Record<string, unknown>,
    questions.data,
    read.answers,
    read.followUpText,
  );
  if (!output) return noDecision('a question was answered with nothing to pass on');
  deps.out(JSON.stringify(output));
  return undefined;
}

async function askPermission(
  input: PermissionRequestInput,
  asker: Asker,
  args: { waitMs: number },
  deps: HookDeps,
) {
  const outcome = await ask(asker, permissionHookBatch(input), args, deps);
  const got = answerText(outcome, args.waitMs);
  if ('line' in got || outcome.kind !== 'answered') return 'line' in got ? got.line : undefined;
  const read = readAnswers(outcome);
  if ('line' in read) return read.line;
  const choice = read.answers[PERMISSION_QUESTION_ID];
  const note = read.followUpText[PERMISSION_QUESTION_ID];
  const output = typeof choice === 'string' ? permissionHookOutput(input, choice, note) : undefined;
  if (!output)
    return noDecision(`the answer ${JSON.stringify(choice)} is not one of the choices offered`);
  deps.out(JSON.stringify(output));
  return undefined;
}
