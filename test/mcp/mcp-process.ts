// `o7-slack-relay mcp` as a real process, driven by the MCP SDK's own client over stdio.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { NODE_LOADER_ARGS, projectModule } from '../support/project-paths.js';

/** A connected client and what the server wrote to stderr. */
export interface McpSession {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

/**
 * Starts `o7-slack-relay mcp <args>` (the same build of the code as the test) with
 * `RELAY_STATE_DIR` set to `where` (or, given variables, with those: `RELAY_URL` and
 * `RELAY_TOKEN`, say) and nothing else but PATH, and connects the SDK's client to it.
 */
export async function connectMcp(
  where: string | Record<string, string>,
  cwd: string,
  args: string[] = [],
): Promise<McpSession> {
  const vars = typeof where === 'string' ? { RELAY_STATE_DIR: where } : where;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...NODE_LOADER_ARGS, projectModule('src/main'), 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', ...vars },
    cwd,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'o7-mcp-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}
