import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { ACTION_KINDS } from '../../src/core/slack/controls/ids.js';
import {
  askMessage,
  choose,
  click,
  current,
  healthyRelayPerTest,
  pressSubmit,
  saveFollowUp,
  type TestRelay,
  waitForText,
  writeFreeText,
} from '../e2e/relay-steps.js';
import { type CpuHogs, startCpuHogs } from '../support/cpu-hogs.js';
import { ALICE, elementsOf } from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';
import { connectMcp, type McpSession } from './mcp-process.js';

/** An AskUserQuestion item: its options as label and description pairs. */
const asked = (
  question: string,
  header: string,
  options: [label: string, description: string][],
  multiSelect?: true,
) => ({
  question,
  header,
  options: options.map(([label, description]) => ({ label, description })),
  ...(multiSelect ? { multiSelect } : {}),
});

const REGION = asked('Which region should the cluster run in?', 'Region', [
  ['eu-west-1', 'Closest to most users.'],
  ['us-east-1', 'Cheapest.'],
]);

const CHECKS = asked(
  'Which checks should run before the deploy?',
  'Checks',
  [
    ['Unit tests', 'Two minutes.'],
    ['Lint', 'Seconds.'],
    ['End to end', 'Twenty minutes.'],
  ],
  true,
);

const NAMING = asked('What should the new service be called?', 'Name', [
  ['relay-api', ''],
  ['answers', ''],
]);

/** The text of a tool result's only content block. */
function textOf(result: CallToolResult): string {
  const [block] = result.content;
  assert.equal(block?.type, 'text');
  return (block as { text: string }).text;
}

/** Calls `name` on the server, with a progress callback (so the client sends a progress token). */
function callTool(
  session: McpSession,
  name: string,
  args: Record<string, unknown>,
  options: { progress?: Progress[]; signal?: AbortSignal } = {},
) {
  const progress = options.progress;
  return session.client.callTool({ name, arguments: args }, undefined, {
    ...(progress ? { onprogress: (p: Progress) => progress.push(p) } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    timeout: 600_000,
  }) as Promise<CallToolResult>;
}

/** A relay in `mode` and an MCP server beside it, on the relay's state folder, per test. */
function relayAndServer(mode: 'socket' | 'http') {
  const h: TestRelay = healthyRelayPerTest(mode);
  let session: McpSession | undefined;
  const mcp = async (args: string[] = []) => {
    session = await connectMcp(h.config.stateDir, h.root, args);
    return session;
  };
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });
  return { h, mcp };
}

describe('o7-slack-relay mcp: ask_user (socket mode)', () => {
  const { h, mcp } = relayAndServer('socket');

  test('lists both tools with their input and output schemas', async () => {
    const session = await mcp();
    const { tools } = await session.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['ask_user', 'request_approval']);
    const ask = tools.find((t) => t.name === 'ask_user');
    const questions = ask?.inputSchema.properties?.questions as Record<string, unknown>;
    assert.equal(questions.type, 'array');
    assert.equal(questions.minItems, 1);
    assert.equal(questions.maxItems, 4);
    const item = questions.items as { required: string[]; properties: Record<string, unknown> };
    assert.deepEqual(item.required.sort(), ['header', 'question'], 'options may be left out');
    assert.deepEqual(Object.keys(ask?.outputSchema?.properties ?? {}).sort(), [
      'answers',
      'followUps',
    ]);
    const approval = tools.find((t) => t.name === 'request_approval');
    assert.deepEqual(approval?.inputSchema.required, ['action']);
    assert.deepEqual(Object.keys(approval?.outputSchema?.properties ?? {}).sort(), [
      'approved',
      'by',
      'choice',
      'note',
    ]);
  });

  test('a choose-one, a multi-select and an Other… with typed text come back as text and structuredContent, with progress while waiting', async () => {
    const session = await mcp(['--progress', '1s']);
    const progress: Progress[] = [];
    const call = callTool(
      session,
      'ask_user',
      { questions: [REGION, CHECKS, NAMING] },
      { progress },
    );
    const posted = await askMessage(h.slack);
    const seen = JSON.stringify(posted.blocks);
    assert.match(seen, /\*Region\*/);
    assert.ok(seen.includes('Closest to most users.'));
    await waitFor(() => progress.length >= 2, 'two progress notifications while waiting');
    assert.match(String(progress[0]?.message), /^waiting for an answer in Slack/);
    assert.ok(
      progress[1] && progress[0] && progress[1].progress > progress[0].progress,
      'progress grows',
    );

    await choose(h.slack, posted.ts, 0, [1]); // us-east-1
    await choose(h.slack, posted.ts, 1, [0, 2]); // Unit tests, End to end
    await choose(h.slack, posted.ts, 2, [2]); // Other…
    await saveFollowUp(h.slack, 'answer-desk');
    await waitForText(h.slack, posted.ts, 'answer-desk');
    await pressSubmit(h.slack, posted.ts);

    const result = await call;
    assert.equal(result.isError, undefined, textOf(result));
    assert.equal(
      textOf(result),
      ['Region: us-east-1', 'Checks: Unit tests, End to end', 'Name: Other: answer-desk'].join(
        '\n',
      ),
    );
    assert.deepEqual(result.structuredContent, {
      answers: {
        [REGION.question]: 'us-east-1',
        [CHECKS.question]: ['Unit tests', 'End to end'],
        [NAMING.question]: 'answer-desk',
      },
      followUps: {},
    });
  });

  test('a question without options is answered in a form, in the words written there, beside a choose-one', async () => {
    const session = await mcp();
    const WHY = { question: 'Why does the migration need a maintenance window?', header: 'Reason' };
    const call = callTool(session, 'ask_user', { questions: [REGION, WHY] });
    const posted = await askMessage(h.slack);
    assert.match(JSON.stringify(posted.blocks), /\*Reason\*/, 'its header is shown');
    await choose(h.slack, posted.ts, 0, [0]); // eu-west-1
    await writeFreeText(h.slack, posted.ts, 1, 'It rewrites the users table.\nAbout a minute.');
    await pressSubmit(h.slack, posted.ts);

    const result = await call;
    assert.equal(result.isError, undefined, textOf(result));
    assert.equal(
      textOf(result),
      ['Region: eu-west-1', 'Reason:', '  It rewrites the users table.', '  About a minute.'].join(
        '\n',
      ),
    );
    assert.deepEqual(result.structuredContent, {
      answers: {
        [REGION.question]: 'eu-west-1',
        [WHY.question]: 'It rewrites the users table.\nAbout a minute.',
      },
      followUps: {},
    });
  });

  test('the client cancelling the call withdraws the question: the Slack message says so', async () => {
    const session = await mcp();
    const stop = new AbortController();
    const call = callTool(session, 'ask_user', { questions: [REGION] }, { signal: stop.signal });
    const posted = await askMessage(h.slack);
    await waitFor(
      () => session.stderr().includes('waiting for an answer in'),
      'the server waiting',
    );
    stop.abort(new Error('answered at the terminal'));
    await assert.rejects(call, /answered at the terminal/);
    await waitFor(
      () => elementsOf(current(h.slack, posted.ts).blocks).length === 0,
      'the message closed',
    );
    assert.match(JSON.stringify(current(h.slack, posted.ts).blocks), /Withdrawn by the agent/);
    const asks = path.join(h.config.stateDir, 'asks');
    const [folder] = await readdir(asks);
    assert.deepEqual(await readdir(path.join(asks, String(folder), 'qa')), [], 'no question file');
  });

  test('the client going away while a call waits (stdin closed) withdraws the question too', async () => {
    const session = await mcp();
    const call = callTool(session, 'ask_user', { questions: [REGION] });
    const posted = await askMessage(h.slack);
    await waitFor(
      () => session.stderr().includes('waiting for an answer in'),
      'the server waiting',
    );
    await session.close();
    await assert.rejects(call, /Connection closed/);
    await waitFor(
      () => elementsOf(current(h.slack, posted.ts).blocks).length === 0,
      'the message closed',
    );
    assert.match(JSON.stringify(current(h.slack, posted.ts).blocks), /Withdrawn by the agent/);
  });

  test('with --timeout, no answer in time is a tool error and the question is withdrawn', async () => {
    const session = await mcp(['--timeout', '1s']);
    const result = await callTool(session, 'ask_user', { questions: [REGION] });
    assert.equal(result.isError, true);
    assert.equal(textOf(result), 'No answer in time; the question was withdrawn from Slack.');
    // on a loaded machine the second can pass before the relay posts: the file is what counts
    const asks = path.join(h.config.stateDir, 'asks');
    const [folder] = await readdir(asks);
    assert.deepEqual(await readdir(path.join(asks, String(folder), 'qa')), [], 'no question file');
  });

  test('questions the envelope contract refuses are a tool error naming the problem; nothing is asked', async () => {
    const session = await mcp();
    const bad = { ...REGION, options: [{ label: 'Other…' }, { label: 'eu-west-1' }] };
    const result = await callTool(session, 'ask_user', { questions: [bad] });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /at questions\[0\]\.options\[0\]\.label: .*Other…/);
    assert.deepEqual(await readdir(path.join(h.config.stateDir, 'asks')), []);
  });
});

describe('o7-slack-relay mcp: request_approval (http mode)', () => {
  const { h, mcp } = relayAndServer('http');

  const ACTION = 'Run the database migration 0042 on production';
  const DETAILS = '```\nALTER TABLE users ADD COLUMN plan text;\n```\nTakes about a minute.';

  test('approved: the choice and who answered come back', async () => {
    const session = await mcp();
    const call = callTool(session, 'request_approval', { action: ACTION, details: DETAILS });
    const posted = await askMessage(h.slack);
    const seen = JSON.stringify(posted.blocks);
    assert.ok(seen.includes(ACTION));
    assert.ok(
      seen.includes('ALTER TABLE users ADD COLUMN plan text;'),
      `the details as a preview: ${seen}`,
    );
    await choose(h.slack, posted.ts, 0, [0]); // Approve
    await pressSubmit(h.slack, posted.ts);
    const result = await call;
    assert.equal(textOf(result), `Approved: Approve, by ${ALICE}.`);
    assert.deepEqual(result.structuredContent, { approved: true, choice: 'Approve', by: ALICE });
  });

  test('denied with a note: the note comes back', async () => {
    const session = await mcp();
    const call = callTool(session, 'request_approval', { action: ACTION });
    const posted = await askMessage(h.slack);
    await choose(h.slack, posted.ts, 0, [3]); // Deny with a note…
    await saveFollowUp(h.slack, 'Not on a Friday.');
    await waitForText(h.slack, posted.ts, 'Not on a Friday.');
    await pressSubmit(h.slack, posted.ts);
    const result = await call;
    assert.equal(textOf(result), `Not approved: Deny, by ${ALICE}.\nNote: Not on a Friday.`);
    assert.deepEqual(result.structuredContent, {
      approved: false,
      choice: 'Deny',
      note: 'Not on a Friday.',
      by: ALICE,
    });
  });

  test('a click on Cancel in Slack is a tool error saying who cancelled', async () => {
    const session = await mcp();
    const call = callTool(session, 'request_approval', { action: ACTION });
    const posted = await askMessage(h.slack);
    await click(h.slack, posted.ts, ACTION_KINDS.cancel);
    const result = await call;
    assert.equal(result.isError, true);
    assert.match(textOf(result), new RegExp(`cancelled in Slack by ${ALICE}`));
  });
});

describe('o7-slack-relay mcp without a relay', () => {
  let root = '';
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'o7-mcp-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  test('a call is a tool error that says how to start the relay', async () => {
    const stateDir = path.join(root, 'state');
    const session = await connectMcp(stateDir, root);
    try {
      const result = await callTool(session, 'request_approval', { action: 'Deploy' });
      assert.equal(result.isError, true);
      const text = textOf(result);
      assert.match(text, new RegExp(`^No relay is running for ${stateDir}\\.`));
      assert.match(
        text,
        /o7-slack-relay start`\) using the same RELAY_STATE_DIR, then call the tool again\./,
      );
      assert.match(text, /half the clicks/);
    } finally {
      await session.close();
    }
  });
});

describe('o7-slack-relay mcp beside two busy cores (socket mode)', () => {
  const { h, mcp } = relayAndServer('socket');
  let hogs: CpuHogs | undefined;
  before(() => {
    hogs = startCpuHogs(2);
  });
  after(() => hogs?.stop());

  test('ask_user still gets its answer', async () => {
    const session = await mcp();
    const call = callTool(session, 'ask_user', { questions: [REGION] });
    const posted = await askMessage(h.slack);
    await choose(h.slack, posted.ts, 0, [0]);
    await pressSubmit(h.slack, posted.ts);
    assert.equal(textOf(await call), 'Region: eu-west-1');
  });
});
