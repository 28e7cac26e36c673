// Asking a relay on another machine (RELAY_ASK_PORT): real `hook` and `ask` processes reach the
// relay over HTTP (and HTTPS with a certificate) with a bearer token; people answer in Slack.
// Wrong and revoked tokens, floods and hostile bodies are refused and change nothing; a wait
// carries on across a relay restart; the deadline withdraws the batch; no token is logged.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { ACTION_KINDS, actionId } from '../../src/core/slack/controls/ids.js';
import { connectMcp, type McpSession } from '../mcp/mcp-process.js';
import type { FakeSlack } from '../support/fake-slack/index.js';
import { captureLog } from '../support/log-capture.js';
import { ALICE, CHANNEL, freePort, type Mode, visibleText } from '../support/relay-harness.js';
import { spawnRelay } from '../support/spawn-relay.js';
import { waitFor } from '../support/wait.js';
import { choose, click, current, E2E_MODE, pressSubmit, relayStarter } from './relay-steps.js';
import {
  askPermissionThroughHook,
  hookPrompt,
  type RemoteHookRelay,
  spawnHook,
} from './steps/hook-prompts.js';

const ANN = `${'a'.repeat(8)}0123456789abcdef0123456789abcdef`;
const OLD = `${'b'.repeat(8)}0123456789abcdef0123456789abcdef`;
const TOKENS = `# who may ask\nann-laptop ${ANN}\nold-runner ${OLD} revoked\n`;
const ALLOW = actionId(ACTION_KINDS.oneTap, 0, 0);

/** The first message a remote ask posted: its title names the token's holder. */
const remoteAsk = (slack: FakeSlack) =>
  waitFor(
    () => slack.messages(CHANNEL).find((m) => visibleText(m).includes('Questions from ann-laptop')),
    "ann-laptop's questions in Slack",
  );

/** A relay serving the ask API on a free port, with ann-laptop's and old-runner's tokens. */
function relayWithAskApi() {
  const startRelay = relayStarter();
  return async (extra: { tls?: boolean; mode?: Mode } = {}) => {
    const capture = captureLog('info');
    const port = await freePort();
    const h = await startRelay({
      ...(extra.mode ? { mode: extra.mode } : {}),
      log: capture.log,
      prepare: async (_slack, root) => {
        const tokensFile = path.join(root, 'ask-tokens');
        await writeFile(tokensFile, TOKENS);
        const tls = extra.tls ? selfSigned(root) : undefined;
        return { askServer: { port, tokensFile, maxOpen: 3, ...(tls ? { tls } : {}) } };
      },
    });
    const url = `${extra.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
    return { h, capture, url, root: h.root };
  };
}

describe(`asking a relay on another machine (${E2E_MODE} mode)`, () => {
  const start = relayWithAskApi();

  test('a permission prompt from a hook on another machine: posted naming the token, allowed in Slack, decided there', async () => {
    const { h, capture, url, root } = await start();
    const hook = askPermissionThroughHook({ url, token: ANN }, root, 'remote');
    const prompt = await hookPrompt(h.slack);
    assert.match(visibleText(prompt), /asked by ann-laptop over the ask API/);
    await click(h.slack, prompt.ts, ALLOW);
    assert.equal((await hook.exited).code, 0, hook.stderr());
    assert.match(hook.stdout(), /"behavior":"allow"/);
    assert.match(hook.stderr(), /^$/);
    const logged = JSON.stringify(capture.records);
    assert.ok(!logged.includes(ANN), 'the token is never logged');
    assert.ok(
      capture.records.some(
        (r) => r.msg === 'questions asked through the ask API' && r.asker === 'ann-laptop',
      ),
      'the log names who asked',
    );
  });

  test('a wrong token and a revoked one are refused, said to the hook, and post nothing', async () => {
    const { h, url, root, capture } = await start();
    const wrong = askPermissionThroughHook({ url, token: 'c'.repeat(40) }, root, 'wrong');
    const revoked = askPermissionThroughHook({ url, token: OLD }, root, 'revoked');
    const [w, r] = await Promise.all([wrong.exited, revoked.exited]);
    assert.equal(w.code, 0);
    assert.equal(r.code, 0);
    assert.equal(wrong.stdout(), '', 'no decision');
    assert.match(wrong.stderr(), /HTTP 401\): The token is not one this relay knows/);
    assert.match(revoked.stderr(), /HTTP 403\): The token of old-runner was revoked/);
    assert.match(revoked.stderr(), /Claude Code asks in the terminal/);
    assert.equal(h.slack.messages(CHANNEL).length, 0, 'nothing posted');
    const logged = JSON.stringify(capture.records);
    assert.ok(!logged.includes(OLD) && !logged.includes('c'.repeat(40)), 'no token logged');
    assert.ok(
      capture.records.some((rec) => rec.msg === 'ask API request refused' && rec.status === 403),
    );
  });

  test("a remote hook's idle notice is posted, naming the token's holder beside the laptop's folder", async () => {
    const { h, url, root } = await start();
    const shop = path.join(root, 'shop');
    await mkdir(shop);
    const proc = spawnHook({ url, token: ANN }, shop, 'f00dfeed-1234', {
      hook_event_name: 'Notification',
      message: 'Claude is waiting for your input',
      notification_type: 'idle_prompt',
    });
    assert.equal((await proc.exited).code, 0);
    assert.equal(proc.stderr(), '');
    const line = await waitFor(
      () =>
        h.slack.messages(CHANNEL).find((m) => visibleText(m).includes('Claude Code is waiting')),
      'the idle line',
    );
    assert.match(
      visibleText(line),
      /\(project \S+\/shop on ann-laptop · session f00dfeed\): Claude is waiting for your input/,
    );
    const refused = spawnHook({ url, token: OLD }, root, 's', {
      hook_event_name: 'Notification',
      message: 'm',
      notification_type: 'idle_prompt',
    });
    await refused.exited;
    assert.match(
      refused.stderr(),
      /refused the notice \(HTTP 403: The token of old-runner was revoked/,
    );
  });

  test('the wait carries on across a relay restart, and the answer still reaches the hook', async () => {
    const { h, url, root } = await start();
    const hook = askPermissionThroughHook({ url, token: ANN }, root, 'restart');
    await hookPrompt(h.slack);
    await h.restart(async () => {
      await waitFor(
        () =>
          /no answer from the relay at .* while waiting for ask .*; trying again in/.test(
            hook.stderr(),
          ) || undefined,
        `the hook says the connection dropped: ${hook.stderr()}`,
      );
    });
    const prompt = await hookPrompt(h.slack);
    await click(h.slack, prompt.ts, ALLOW);
    assert.equal((await hook.exited).code, 0, hook.stderr());
    assert.match(hook.stdout(), /"behavior":"allow"/);
  });

  test('nobody answers before --wait: the hook leaves it to the terminal and the message is withdrawn', async () => {
    const { h, url, root } = await start();
    const hook = askPermissionThroughHook({ url, token: ANN }, root, 'late', ['--wait', '2s']);
    const prompt = await hookPrompt(h.slack);
    assert.equal((await hook.exited).code, 0);
    assert.match(hook.stderr(), /nobody answered in Slack within 2 s/);
    await waitFor(
      () =>
        /Closed: answered in the terminal, or left to it/.test(
          visibleText(current(h.slack, prompt.ts)),
        ) || undefined,
      () =>
        `the message says it went back to the terminal: ${JSON.stringify(current(h.slack, prompt.ts))}`,
    );
  });

  test("over HTTPS with the relay's own certificate", async () => {
    const { h, url, root } = await start({ tls: true });
    const relay: RemoteHookRelay = {
      url,
      token: ANN,
      env: { NODE_EXTRA_CA_CERTS: path.join(root, 'ask-cert.pem') },
    };
    const hook = askPermissionThroughHook(relay, root, 'tls');
    const prompt = await hookPrompt(h.slack);
    await click(h.slack, prompt.ts, ALLOW);
    assert.equal((await hook.exited).code, 0, hook.stderr());
    assert.match(hook.stdout(), /"behavior":"allow"/);
  });
});

describe('asking a relay on another machine from an MCP client and from ask (HTTP mode)', () => {
  const start = relayWithAskApi();
  let session: McpSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  test("the MCP SDK's Client calls ask_user through RELAY_URL; the answer given in Slack comes back", async () => {
    const { h, url, root } = await start({ mode: 'http' });
    session = await connectMcp({ RELAY_URL: url, RELAY_TOKEN: ANN }, root);
    const call = session.client.callTool({
      name: 'ask_user',
      arguments: {
        questions: [
          {
            question: 'Which region should the cluster run in?',
            header: 'Region',
            options: [
              { label: 'eu-west-1', description: 'Closest to most users.' },
              { label: 'us-east-1', description: 'Cheapest.' },
            ],
          },
        ],
      },
    });
    const posted = await remoteAsk(h.slack);
    assert.match(visibleText(posted), /asked by ann-laptop over the ask API/);
    await choose(h.slack, posted.ts, 0, [1]);
    await pressSubmit(h.slack, posted.ts);
    const result = (await call) as { content: { type: string; text: string }[]; isError?: boolean };
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.match(result.content[0]?.text ?? '', /Region: us-east-1/);
    assert.match(
      session.stderr(),
      /Asked in Slack through the relay at http:\/\/127\.0\.0\.1:\d+ as ann-laptop/,
    );
  });

  /** `ask --relay` on another machine's agent message with one question; its message in Slack. */
  async function askRemotely() {
    const { h, url, root } = await start({ mode: 'http' });
    const message = [
      'I need one decision.',
      '```json',
      JSON.stringify({
        openQuestions: [
          {
            question: 'Ship the release today?',
            header: 'Ship',
            options: [{ label: 'Today', description: 'Before five.' }, { label: 'Monday' }],
          },
        ],
      }),
      '```',
    ].join('\n');
    const ask = spawnRelay(['ask', '--relay', url], {
      env: { RELAY_TOKEN: ANN },
      cwd: root,
      stdin: message,
    });
    return { h, ask, posted: await remoteAsk(h.slack) };
  }

  test("ask --relay puts an agent's open questions to Slack and prints the resume message", async () => {
    const { h, ask, posted } = await askRemotely();
    await choose(h.slack, posted.ts, 0, [0]);
    await pressSubmit(h.slack, posted.ts);
    assert.equal((await ask.exited).code, 0, ask.stderr());
    assert.match(ask.stdout(), /Ship: Today/);
    assert.match(
      ask.stderr(),
      /Asked 1 question in Slack through the relay at http:\/\/127\.0\.0\.1:\d+ as ann-laptop/,
    );
  });

  test('Cancel pressed in Slack reaches ask on the other machine: exit 5, who cancelled said', async () => {
    const { h, ask, posted } = await askRemotely();
    await click(h.slack, posted.ts, ACTION_KINDS.cancel);
    assert.equal((await ask.exited).code, 5, ask.stderr());
    assert.equal(ask.stdout(), '');
    assert.match(ask.stderr(), new RegExp(`cancelled in Slack by ${ALICE} at `));
  });
});

/** A certificate for 127.0.0.1 made here, with its key, as an operator's own CA would give. */
function selfSigned(root: string) {
  const certFile = path.join(root, 'ask-cert.pem');
  const keyFile = path.join(root, 'ask-key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile };
}
