// Asking a relay on another machine (RELAY_ASK_PORT): real `hook` and `ask` processes reach the
// relay over HTTP (and HTTPS with a certificate) with a bearer token; people answer in Slack.
// Wrong and revoked tokens, floods and hostile bodies are refused and change nothing; a wait
// carries on across a relay restart; the deadline withdraws the batch; no token is logged.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { ACTION_KINDS, actionId } from '../../src/core/slack/controls/ids.js';
import { captureLog } from '../support/log-capture.js';
import {
  CHANNEL,
  freePort,
  type Harness,
  startRelayHarness,
  visibleText,
} from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';
import { click, current, E2E_MODE } from './relay-steps.js';
import {
  askPermissionThroughHook,
  hookPrompt,
  type RemoteHookRelay,
} from './steps/hook-prompts.js';

const ANN = `${'a'.repeat(8)}0123456789abcdef0123456789abcdef`;
const OLD = `${'b'.repeat(8)}0123456789abcdef0123456789abcdef`;
const TOKENS = `# who may ask\nann-laptop ${ANN}\nold-runner ${OLD} revoked\n`;
const ALLOW = actionId(ACTION_KINDS.oneTap, 0, 0);

describe(`asking a relay on another machine (${E2E_MODE} mode)`, () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  async function start(extra: { tls?: boolean } = {}) {
    const capture = captureLog('info');
    const port = await freePort();
    h = await startRelayHarness(E2E_MODE, {
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
  }

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

  test('the wait carries on across a relay restart, and the answer still reaches the hook', async () => {
    const { h, url, root } = await start();
    const hook = askPermissionThroughHook({ url, token: ANN }, root, 'restart');
    await hookPrompt(h.slack);
    await h.restart(async () => {
      await waitFor(
        () => /lost the connection/.test(hook.stderr()) || undefined,
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
      'the message says it went back to the terminal',
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
