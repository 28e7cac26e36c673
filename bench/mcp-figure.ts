import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startFakeSlack } from '../test/support/fake-slack/index.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import {
  CHANNEL,
  hrNow,
  MAIN,
  ms,
  okPosts,
  percentile,
  socketConnected,
  startRelay,
  USER,
  until,
} from './bench-support.js';

/** What figure 11 measured, in ms per sample. */
export interface McpFigure {
  /** tools/call sent → the batch's chat.postMessage seen */
  toPost: number[];
  /** Submit clicked → the tool result received */
  toResult: number[];
  /** a tools/call answered at once (a refused argument): the MCP round trip alone */
  floor: number[];
}

/** The element of a posted message whose action id starts with `prefix`, with its block id. */
function elementOf(blocks: unknown, prefix: string) {
  for (const block of (blocks as { block_id?: string; elements?: { action_id?: string }[] }[]) ??
    []) {
    const found = block.elements?.find((e) => e.action_id?.startsWith(prefix));
    if (found?.action_id) return { blockId: String(block.block_id), actionId: found.action_id };
  }
  throw new Error(`bench: no ${prefix} control in the posted batch`);
}

/**
 * Figure 11: `o7-slack-relay mcp` driven by the SDK's client beside a relay and the stand-in:
 * `samples` request_approval calls, each answered by picking Approve and pressing Submit.
 */
export async function measureMcp(samples: number): Promise<McpFigure> {
  const slack = await startFakeSlack({ now: hrNow });
  const { dir, cleanup } = await makeTempDir('o7-bench-mcp-');
  const relay = startRelay(slack, dir);
  const client = new Client({ name: 'o7-bench', version: '0.0.0' });
  try {
    await socketConnected(slack);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MAIN, 'mcp'],
        env: { PATH: process.env.PATH ?? '', RELAY_STATE_DIR: path.join(dir, 'state') },
        cwd: dir,
        stderr: 'ignore',
      }),
    );
    const call = (args: Record<string, unknown>) =>
      client.callTool({ name: 'request_approval', arguments: args }) as Promise<CallToolResult>;
    const figure: McpFigure = { toPost: [], toResult: [], floor: [] };
    const refused = {
      action: 'x',
      choices: [
        { label: 'A', approves: true },
        { label: 'B', approves: true },
      ],
    };
    for (let i = 0; i < samples; i++) {
      const floorAt = hrNow();
      await call(refused);
      figure.floor.push(hrNow() - floorAt);

      const before = okPosts(slack).length;
      const sentAt = hrNow();
      const pending = call({ action: `Bench action ${i}` });
      const post = await until(() => okPosts(slack)[before], 'the approval batch posted');
      figure.toPost.push(hrNow() - sentAt);
      const ts = String((post.response as { ts?: string }).ts);
      const radio = elementOf(post.args.blocks, 'o7.choose');
      await slack.selectOption({ channel: CHANNEL, ts, user: USER, ...radio, value: '0' });
      const submit = elementOf(post.args.blocks, 'o7.submit');
      const clickedAt = hrNow();
      await slack.clickButton({ channel: CHANNEL, ts, user: USER, ...submit });
      const result = await pending;
      figure.toResult.push(hrNow() - clickedAt);
      if (result.isError) throw new Error(`bench: the approval failed: ${JSON.stringify(result)}`);
    }
    return figure;
  } finally {
    await client.close();
    await relay.stop();
    await slack.close();
    await cleanup();
  }
}

/** Figure 11's lines. */
export function mcpLines(figure: McpFigure): string[] {
  const p = (xs: number[], at: number) => ms(percentile(xs, at));
  const n = figure.toPost.length;
  return [
    `11. mcp request_approval, ${n} calls: tools/call → chat.postMessage p50 ${p(figure.toPost, 50)}, p99 ${p(figure.toPost, 99)}; Submit → tool result p50 ${p(figure.toResult, 50)}, p99 ${p(figure.toResult, 99)}  (target p50 ≤ 150 ms and ≤ 50 ms)`,
    `    floor: a tools/call answered at once (MCP over stdio, no relay) p50 ${p(figure.floor, 50)}, p99 ${p(figure.floor, 99)}`,
  ];
}
