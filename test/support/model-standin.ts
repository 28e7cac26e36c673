// A loopback stand-in of the Anthropic Messages API, for running the real Claude Code CLI
// offline: it answers each main-loop turn from a script over server-sent events, as the API
// streams, and keeps every request so a test can read the tool_result Claude Code sent back.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from './wait.js';

/** One scripted reply: a tool call, or text that ends the turn. */
export type ModelTurn = { toolUse: { name: string; input: unknown } } | { text: string };

/** A request the stand-in received. */
export interface ModelRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
  /** a main-loop request (it offers tools); others are side requests such as the session title */
  main: boolean;
  /** how many assistant turns the request already holds: turn i gets script step i */
  turn: number;
}

/** A tool_result block Claude Code sent back. */
export interface ToolResult {
  tool_use_id: string;
  content: unknown;
  is_error?: boolean;
}

/** The stand-in, listening on 127.0.0.1. */
export interface ModelStandin {
  url: string;
  requests: ModelRequest[];
  /** The first main-loop request of `turn`, once it came. */
  turnRequest(turn: number): Promise<ModelRequest>;
  close(): Promise<void>;
}

const usage = {
  input_tokens: 10,
  output_tokens: 1,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

/** The server-sent events of one reply: message_start, one content block, message_delta, stop. */
function events(model: string, step: ModelTurn, seq: number): [string, unknown][] {
  const tool = 'toolUse' in step;
  const block = tool
    ? { type: 'tool_use', id: `toolu_standin_${seq}`, name: step.toolUse.name, input: {} }
    : { type: 'text', text: '' };
  const delta = tool
    ? { type: 'input_json_delta', partial_json: JSON.stringify(step.toolUse.input) }
    : { type: 'text_delta', text: step.text };
  return [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id: `msg_${seq}`,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage,
        },
      },
    ],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: block }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: tool ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: 5 },
      },
    ],
    ['message_stop', { type: 'message_stop' }],
  ];
}

/**
 * Starts the stand-in: main-loop turn i is answered with `turns[i]` (text "Done." past the end);
 * side requests without tools (the session title) get a JSON title; anything else a 404.
 */
export async function startModelStandin(turns: readonly ModelTurn[]): Promise<ModelStandin> {
  const requests: ModelRequest[] = [];
  let seq = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seq += 1;
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> | undefined;
      try {
        body = raw === '' ? undefined : (JSON.parse(raw) as Record<string, unknown>);
      } catch {
        body = undefined;
      }
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const messages = (body?.messages as { role: string }[] | undefined) ?? [];
      const main =
        path === '/v1/messages' && ((body?.tools as unknown[] | undefined) ?? []).length > 0;
      const turn = messages.filter((message) => message.role === 'assistant').length;
      requests.push({ method: req.method ?? '', path, body, main, turn });
      if (req.method !== 'POST' || path !== '/v1/messages') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            type: 'error',
            error: { type: 'not_found_error', message: 'stand-in' },
          }),
        );
        return;
      }
      const step: ModelTurn = main
        ? (turns[turn] ?? { text: 'Done.' })
        : { text: JSON.stringify({ title: 'Stand-in session' }) };
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const [name, data] of events(String(body?.model), step, seq)) {
        res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    turnRequest: (turn) =>
      waitFor(
        () => requests.find((request) => request.main && request.turn === turn),
        `Claude Code's model request of turn ${turn}`,
        CLAUDE_WAIT_MS,
      ),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * How long a step of the real CLI may take: its first model request came 2 s after start on a
 * quiet machine and up to 19 s on a loaded one.
 */
export const CLAUDE_WAIT_MS = 120_000;

/** The tool_result blocks a request carries, in order. */
export function toolResults(request: ModelRequest): ToolResult[] {
  const messages = (request.body?.messages as { content: unknown }[] | undefined) ?? [];
  return messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as Record<string, unknown>[]).filter(
          (block) => block.type === 'tool_result',
        )
      : [],
  ) as unknown as ToolResult[];
}

/** A tool_result's content as text (Claude Code sends a string or text blocks). */
export function resultText(result: ToolResult | undefined): string {
  const content = result?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((block) => (block as { text?: string }).text ?? '').join('');
  return '';
}
