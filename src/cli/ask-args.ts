import { RELAY_URL_OPTION } from '../ask/choose-asker.js';
import { parseDuration } from '../config/parse-duration.js';
import { checkPlanId } from '../core/envelope/dispatch-failure.js';
import { err, ok, type Result } from '../core/result.js';
import type { ReadOptions } from './read-options.js';

/** `ask`'s command line, read. */
export interface AskArgs {
  /** A file holding the agent's final message, or `-` for stdin. */
  input: string;
  /** Give up (and withdraw the questions) after this long; `text` as the user wrote it. */
  timeout?: { ms: number; text: string };
  /** Set with `--second-attempt`: a malformed envelope is recorded as a dispatch failure. */
  secondAttempt?: { planId: string; phase: string };
  /** `--relay URL`: ask through the relay on another machine (with `RELAY_TOKEN`) */
  relay?: string;
}

/** The options `ask` takes besides `--help`. */
export const ASK_OPTIONS = {
  timeout: { type: 'string' },
  'second-attempt': { type: 'boolean' },
  plan: { type: 'string' },
  phase: { type: 'string' },
  ...RELAY_URL_OPTION,
} as const;

type AskOptions = Extract<ReadOptions<typeof ASK_OPTIONS>, { kind: 'read' }>;

/** Checks what `readOptions` read for `ask` and puts it into `AskArgs`. */
export function toAskArgs({ values, positionals }: AskOptions): Result<AskArgs, string> {
  if (positionals.length > 1) {
    return err(`takes at most one FILE (or - for stdin), got ${positionals.join(' ')}`);
  }
  const args: AskArgs = {
    input: positionals[0] ?? '-',
    ...(values.relay !== undefined ? { relay: values.relay } : {}),
  };
  if (values.timeout !== undefined) {
    const ms = parseDuration(values.timeout);
    if (!ms.ok) return err(`--timeout ${ms.error}`);
    args.timeout = { ms: ms.value, text: values.timeout };
  }
  const { plan: planId, phase } = values;
  if (!values['second-attempt']) {
    if (planId !== undefined || phase !== undefined) {
      return err('--plan and --phase go with --second-attempt');
    }
    return ok(args);
  }
  if (planId === undefined || phase === undefined) {
    return err(
      '--second-attempt needs --plan <id> and --phase <phase>, to name docs/plans/<id>/dispatch-failure.md',
    );
  }
  const problem = checkPlanId(planId);
  if (problem !== undefined) return err(`--plan ${problem}`);
  if (phase.trim() === '') return err('--phase needs a phase name such as "design"');
  args.secondAttempt = { planId, phase };
  return ok(args);
}
