import { quote } from '../protocol/json/describe-value.js';
import { err, ok, type Result } from '../result.js';

/** What to record when an agent's envelope failed to parse on both attempts. */
export interface DispatchFailureInput {
  /** The plan folder name under `docs/plans/`, e.g. `2026-05-01-add-rate-limiting`. */
  planId: string;
  /** The pipeline phase that halted, e.g. `design`. */
  phase: string;
  /** The agent's raw final message, recorded verbatim. */
  message: string;
  /** The parse error of the second attempt (the text `findEnvelope` returned). */
  error: string;
  now: Date;
}

/** A file to write, relative to the repository root. */
export interface DispatchFailureRecord {
  relativePath: string;
  content: string;
}

// One path segment: no separators, never `.` or `..`, nothing a shell or YAML would trip on.
const PLAN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const PLAIN_SCALAR = /^[A-Za-z0-9][A-Za-z0-9 ._/-]*$/;

/** Why `planId` cannot name a folder under `docs/plans/`, or `undefined` when it can. */
export function checkPlanId(planId: string): string | undefined {
  if (PLAN_ID.test(planId)) return undefined;
  return `expected a plan id made of letters, digits, ".", "_" and "-" that starts with a letter or digit (one folder name under docs/plans/, e.g. "2026-05-01-add-rate-limiting"), found ${quote(planId)}`;
}

/** A YAML scalar: plain when it is plainly safe, else double-quoted (JSON strings are valid YAML). */
const yamlScalar = (text: string): string =>
  PLAIN_SCALAR.test(text) && text.trim() === text ? text : JSON.stringify(text);

/**
 * A backtick fence longer than any backtick run in `text`, so no line of it can close the
 * block early.
 */
export function fenceFor(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (run) => run[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

// The text verbatim, apart from the final newline the closing fence needs.
function fenced(text: string): string[] {
  const fence = fenceFor(text);
  return [`${fence}text`, text.endsWith('\n') ? text.slice(0, -1) : text, fence];
}

/**
 * The `docs/plans/<planId>/dispatch-failure.md` to write after the second failed parse:
 * frontmatter (`phase`, `status: parse-failed`, `failed_at`), then the parse error and the
 * agent's raw message, each in a fence it cannot break out of.
 */
export function dispatchFailureRecord(
  input: DispatchFailureInput,
): Result<DispatchFailureRecord, string> {
  const problem = checkPlanId(input.planId);
  if (problem !== undefined) return err(problem);
  if (input.phase.trim() === '')
    return err(`expected a phase name such as "design", found ${quote(input.phase)}`);
  const lines = [
    '---',
    `phase: ${yamlScalar(input.phase)}`,
    'status: parse-failed',
    `failed_at: ${input.now.toISOString()}`,
    '---',
    '',
    `# Dispatch failure: ${input.phase.replace(/\s+/g, ' ')}`,
    '',
    "The agent's open-questions envelope could not be parsed on either attempt, so this phase is halted. Fix or re-run the agent, then resume the phase.",
    '',
    '## Parse error',
    '',
    ...fenced(input.error),
    '',
    '## Raw message',
    '',
    ...fenced(input.message),
    '',
  ];
  return ok({
    relativePath: `docs/plans/${input.planId}/dispatch-failure.md`,
    content: lines.join('\n'),
  });
}
