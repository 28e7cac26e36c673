import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { askerFor, chooseTarget } from '../ask/choose-asker.js';
import { packageVersion } from '../cli/package-version.js';
import { stopReason } from '../stop-signals.js';
import type { McpArgs } from './mcp-args.js';
import { createMcpServer } from './mcp-server.js';

/** What `mcp` needs from its process. */
export interface McpDeps {
  env: Record<string, string | undefined>;
  cwd: string;
  err: (line: string) => void;
  /** Aborted on a stop signal; the reason names it. */
  signal: AbortSignal;
}

/**
 * `o7-slack-relay mcp`: serves the MCP tools on stdio until the client closes standard input
 * or a signal stops it; every question still waiting is then withdrawn from Slack. Returns
 * the exit code.
 */
export async function runMcp(args: McpArgs, deps: McpDeps): Promise<number> {
  const target = chooseTarget({ relay: args.relay }, deps.env, deps.cwd);
  if (!target.ok) {
    deps.err(`o7-slack-relay mcp: ${target.error}`);
    return 2;
  }
  const stopping = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  const server = createMcpServer({
    ask: askerFor(target.value, deps.err),
    progressMs: args.progressMs,
    ...(args.timeoutMs !== undefined ? { timeoutMs: args.timeoutMs } : {}),
    signal: AbortSignal.any([stopping.signal, deps.signal]),
    version: packageVersion(),
    err: deps.err,
    inFlight,
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<string>((resolve) => {
    process.stdin.once('end', () => resolve('the client closing standard input'));
    deps.signal.addEventListener('abort', () => resolve(stopReason(deps.signal.reason)), {
      once: true,
    });
  });
  await server.connect(transport);
  const reason = await closed;
  stopping.abort(reason);
  // the waits see the abort and withdraw their questions from Slack
  await Promise.allSettled([...inFlight]);
  await server.close();
  return 0;
}
