import { checkPlanId } from '../core/envelope/dispatch-failure.js';
import { err, ok, type Result } from '../core/result.js';

/** `ask`'s command line, read. */
export interface AskArgs {
  /** A file holding the agent's final message, or `-` for stdin. */
  input: string;
  /** Give up (and withdraw the questions) after this long; `text` as the user wrote it. */
  timeout?: { ms: number; text: string };
  /** Set with `--second-attempt`: a malformed envelope is recorded as a dispatch failure. */
  secondAttempt?: { planId: string; phase: string };
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;
// setTimeout fires at once for anything longer than 2^31 - 1 ms (about 24.8 days)
const LONGEST_MS = 2 ** 31 - 1;

/** Reads `90`, `90s`, `15m`, `2h` or `500ms` (plain numbers are seconds) into milliseconds. */
export function parseDuration(text: string): Result<number, string> {
  const match = DURATION.exec(text.trim());
  const amount = Number(match?.[1]);
  const unit = (match?.[2] ?? 's') as keyof typeof UNIT_MS;
  const ms = Math.round(amount * UNIT_MS[unit]);
  if (!match || !(ms > 0)) {
    return err(
      `--timeout expects a duration such as 90 (seconds), 90s, 15m or 2h, found "${text}"`,
    );
  }
  if (ms > LONGEST_MS) return err(`--timeout can be at most 596h, found "${text}"`);
  return ok(ms);
}

const VALUE_FLAGS = ['--timeout', '--plan', '--phase'] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];

/** Reads the arguments after `ask`. */
export function parseAskArgs(argv: readonly string[]): Result<AskArgs, string> {
  const values: Partial<Record<ValueFlag, string>> = {};
  const positional: string[] = [];
  let secondAttempt = false;
  let optionsDone = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (optionsDone || arg === '-' || !arg.startsWith('-')) {
      positional.push(arg);
      continue;
    }
    if (arg === '--') {
      optionsDone = true;
      continue;
    }
    if (arg === '--second-attempt') {
      secondAttempt = true;
      continue;
    }
    const [name, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (!(VALUE_FLAGS as readonly string[]).includes(name)) {
      return err(`ask: unknown option ${arg}`);
    }
    let value = inline;
    if (value === undefined) {
      i += 1;
      value = argv[i];
    }
    if (value === undefined || value === '') return err(`ask: ${name} needs a value`);
    values[name as ValueFlag] = value;
  }
  if (positional.length > 1) {
    return err(`ask takes at most one FILE (or - for stdin), got ${positional.join(' ')}`);
  }
  const args: AskArgs = { input: positional[0] ?? '-' };
  if (values['--timeout'] !== undefined) {
    const ms = parseDuration(values['--timeout']);
    if (!ms.ok) return err(`ask: ${ms.error}`);
    args.timeout = { ms: ms.value, text: values['--timeout'] };
  }
  const { '--plan': planId, '--phase': phase } = values;
  if (!secondAttempt) {
    if (planId !== undefined || phase !== undefined) {
      return err('ask: --plan and --phase go with --second-attempt');
    }
    return ok(args);
  }
  if (planId === undefined || phase === undefined) {
    return err(
      'ask: --second-attempt needs --plan <id> and --phase <phase>, to name docs/plans/<id>/dispatch-failure.md',
    );
  }
  const problem = checkPlanId(planId);
  if (problem !== undefined) return err(`ask: --plan ${problem}`);
  if (phase.trim() === '') return err('ask: --phase needs a phase name such as "design"');
  args.secondAttempt = { planId, phase };
  return ok(args);
}
