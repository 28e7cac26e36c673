import { RELAY_URL_OPTION } from '../ask/choose-asker.js';
import type { ReadOptions } from '../cli/read-options.js';
import { DURATION_FORMAT, parseDuration } from '../config/parse-duration.js';
import { err, ok, type Result } from '../core/result.js';

/** `mcp`'s command line, read. */
export interface McpArgs {
  /** Give up on a question (and withdraw it) after this long. */
  timeoutMs?: number;
  /** How often a waiting call reports progress (default 20 s). */
  progressMs: number;
  /** `--relay URL`: ask through the relay on another machine (with `RELAY_TOKEN`) */
  relay?: string;
}

/** The options `mcp` takes besides `--help`. */
export const MCP_OPTIONS = {
  timeout: { type: 'string' },
  progress: { type: 'string' },
  ...RELAY_URL_OPTION,
} as const;

const DEFAULT_PROGRESS_MS = 20_000;

/** `o7-slack-relay mcp --help`. */
export const MCP_HELP = `Usage: o7-slack-relay mcp [options]

Serve the Model Context Protocol on standard input and output, for any MCP client (Claude
Code, Cursor, your own agent). Tools: ask_user (AskUserQuestion's questions) and
request_approval (an action to approve or deny). Each call puts its question to people in
Slack through the running relay, like ask, and returns when someone answers. It reads only
RELAY_STATE_DIR (or RELAY_URL and RELAY_TOKEN) and never connects to Slack itself. See
docs/mcp.md.

Options:
  --timeout <duration>    give up on a question after this long and withdraw it; a duration
                          is ${DURATION_FORMAT}
  --progress <duration>   how often a waiting call reports progress (default 20s)
  --relay <url>           ask the relay on another machine (default RELAY_URL), with the
                          token in RELAY_TOKEN; see docs/remote-relay.md
  -h, --help              show this help

Example:
  claude mcp add slack-relay -e RELAY_STATE_DIR=$HOME/.o7-relay -- o7-slack-relay mcp`;

type McpOptions = Extract<ReadOptions<typeof MCP_OPTIONS>, { kind: 'read' }>;

/** Checks what `readOptions` read for `mcp`. */
export function toMcpArgs({ values, positionals }: McpOptions): Result<McpArgs, string> {
  if (positionals.length > 0) return err(`takes no arguments (got ${positionals.join(' ')})`);
  const args: McpArgs = {
    progressMs: DEFAULT_PROGRESS_MS,
    ...(values.relay !== undefined ? { relay: values.relay } : {}),
  };
  for (const name of ['timeout', 'progress'] as const) {
    const text = values[name];
    if (text === undefined) continue;
    const ms = parseDuration(text);
    if (!ms.ok) return err(`--${name} ${ms.error}`);
    if (name === 'timeout') args.timeoutMs = ms.value;
    else args.progressMs = ms.value;
  }
  return ok(args);
}
