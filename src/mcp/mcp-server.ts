import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { readAskAnswers } from '../ask/ask-answers.js';
import type { BatchFile } from '../ask/ask-folder.js';
import type { Asker, RelayAsk } from '../ask/ask-relay.js';
import { noRelayMessage } from '../ask/no-relay-message.js';
import type { Envelope } from '../core/envelope/envelope.js';
import { askUserEnvelopeSchema } from '../core/envelope/envelope-schema.js';
import { formatResumeMessage } from '../core/envelope/resume-message.js';
import {
  type ApprovalRequest,
  approvalBatch,
  choicesProblem,
  readApproval,
} from '../core/mcp/approval-batch.js';
import { askUserBatch } from '../core/mcp/ask-user-batch.js';
import { userAnswers } from '../core/mcp/user-answers.js';
import { problemsFromZod } from '../core/protocol/schema-messages.js';
import {
  askUserInput,
  askUserOutput,
  requestApprovalInput,
  requestApprovalOutput,
} from './mcp-tool-schemas.js';

/** What the MCP server needs; tests and `main` pass their own. */
export interface McpServerDeps {
  /** Puts a batch to people through this machine's relay or one on another machine. */
  ask: Asker;
  /** How often a client that sent a progress token hears that the wait goes on. */
  progressMs: number;
  /** Give up and withdraw a question after this long; none by default. */
  timeoutMs?: number;
  /** Aborted when the server stops (stdin closed, a signal): every wait ends, withdrawn. */
  signal: AbortSignal;
  version: string;
  /** Every ask still waiting, so a stop can wait for their questions to be withdrawn. */
  inFlight: Set<Promise<unknown>>;
  /** One line to stderr, which MCP clients keep in their logs. */
  err: (line: string) => void;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What an answered ask hands the tool: the answers, parsed, and who answered. */
interface Answered {
  kind: 'answered';
  answers: Record<string, string | string[]>;
  typed: Record<string, string>;
  by: string | undefined;
}

const toolError = (text: string): CallToolResult => ({
  content: [{ type: 'text', text }],
  isError: true,
});

const failed = (text: string) => ({ kind: 'error' as const, result: toolError(text) });

/**
 * The MCP server `o7-slack-relay mcp` runs: tools `ask_user` and `request_approval`, each of
 * which puts a batch to people through the running relay (its `Asker`, never Slack itself) and
 * answers the call when a person does. While it waits, a client that sent a progress token
 * hears so every `progressMs`; a cancelled call withdraws the batch from Slack.
 */
export function createMcpServer(deps: McpServerDeps): McpServer {
  const server = new McpServer({ name: 'o7-slack-relay', version: deps.version });
  server.registerTool(
    'ask_user',
    {
      title: 'Ask people in Slack',
      description:
        'Ask people in Slack one to four questions (AskUserQuestion\'s shape) and wait for their answer. A question with options also offers "Other…" for typed text; one without options is answered in the person\'s own words. Returns the answers as text and, in structuredContent, by question text.',
      inputSchema: askUserInput,
      outputSchema: askUserOutput,
    },
    async (args, extra) => {
      const checked = askUserEnvelopeSchema.safeParse({ openQuestions: args.questions });
      if (!checked.success) {
        const lines = problemsFromZod(checked.error).map(
          (p) => `  - at ${p.path.replace(/^openQuestions/, 'questions')}: ${p.message}`,
        );
        return toolError(['ask_user: the questions cannot be asked:', ...lines].join('\n'));
      }
      const envelope: Envelope = checked.data;
      const ended = await askPeople(askUserBatch(envelope), extra, deps);
      if (ended.kind !== 'answered') return ended.result;
      const text = formatResumeMessage(envelope, ended.answers, ended.typed);
      const structured = userAnswers(envelope, ended.answers, ended.typed);
      return {
        content: [{ type: 'text', text }],
        structuredContent: {
          answers: { ...structured.answers },
          followUps: { ...structured.followUps },
        },
      };
    },
  );
  server.registerTool(
    'request_approval',
    {
      title: 'Ask for approval in Slack',
      description:
        'Ask people in Slack to approve or deny an action before you take it, and wait for the decision. Returns whether it was approved, the choice, who answered and their note.',
      inputSchema: requestApprovalInput,
      outputSchema: requestApprovalOutput,
    },
    async (args, extra) => {
      const request: ApprovalRequest = {
        action: args.action,
        ...(args.details !== undefined ? { details: args.details } : {}),
        ...(args.choices !== undefined ? { choices: args.choices } : {}),
      };
      const problem = request.choices ? choicesProblem(request.choices) : undefined;
      if (problem !== undefined) return toolError(`request_approval: ${problem}`);
      const ended = await askPeople(approvalBatch(request), extra, deps);
      if (ended.kind !== 'answered') return ended.result;
      const decision = readApproval(request, ended.answers.q1, ended.typed.q1);
      if (!decision) return toolError('request_approval: the answer matched none of the choices');
      const who = ended.by === undefined ? 'someone (the relay kept no name)' : ended.by;
      const lines = [
        `${decision.approved ? 'Approved' : 'Not approved'}: ${decision.choice}, by ${who}.`,
        ...(decision.note !== undefined ? [`Note: ${decision.note}`] : []),
      ];
      return {
        content: [{ type: 'text', text: lines.join('\n') }],
        structuredContent: { ...decision, ...(ended.by !== undefined ? { by: ended.by } : {}) },
      };
    },
  );
  return server;
}

/** Sends `notifications/progress` while the wait goes on, if the client asked for them. */
function progressReporter(extra: Extra, everyMs: number): { start(): void; stop(): void } {
  const token = extra._meta?.progressToken;
  let timer: NodeJS.Timeout | undefined;
  let count = 0;
  const started = Date.now();
  const send = () => {
    count += 1;
    const waited = Math.round((Date.now() - started) / 1000);
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken: token as string | number,
          progress: count,
          message: `waiting for an answer in Slack (${waited} s so far)`,
        },
      })
      .catch(() => undefined); // the client went away: the call's signal ends the wait
  };
  return {
    start() {
      if (token === undefined) return;
      send();
      timer = setInterval(send, everyMs);
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}

/**
 * Puts `batch` to people and waits: the answers once someone submits, or the tool error that
 * says why there are none (no relay, cancelled in Slack, no answer in time).
 */
async function askPeople(
  batch: BatchFile,
  extra: Extra,
  deps: McpServerDeps,
): Promise<Answered | { kind: 'error'; result: CallToolResult }> {
  const progress = progressReporter(extra, deps.progressMs);
  let outcome: RelayAsk;
  try {
    const asked = deps.ask({
      batch,
      signal: AbortSignal.any([extra.signal, deps.signal]),
      ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
      onDelivered: (where) => {
        deps.err(`Asked in Slack ${where}`);
        progress.start();
      },
    });
    deps.inFlight.add(asked);
    outcome = await asked.finally(() => deps.inFlight.delete(asked));
  } finally {
    progress.stop();
  }
  switch (outcome.kind) {
    case 'no-relay':
      return failed(noRelayMessage(outcome.stateDir, 'The MCP server', 'call the tool again'));
    case 'refused':
      return failed(outcome.reason);
    case 'cancelled': {
      const by = outcome.cancellation
        ? ` by ${outcome.cancellation.cancelledBy} at ${outcome.cancellation.cancelledAt}`
        : '';
      return failed(`The question was cancelled in Slack${by}; there is no answer.`);
    }
    case 'timed-out':
      return failed('No answer in time; the question was withdrawn from Slack.');
    case 'aborted':
      // the client cancelled the call (it reads no result) or the server is stopping
      return failed(`Stopped by ${outcome.reason}; the question was withdrawn from Slack.`);
    case 'answered': {
      const read = readAskAnswers(outcome);
      if (!read.ok) return failed(read.error);
      const { answers, followUpText, answeredBy } = read.value;
      return { kind: 'answered', answers, typed: followUpText, by: answeredBy };
    }
  }
}
