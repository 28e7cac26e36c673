import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import type { FakeSlack } from '../support/fake-slack/index.js';
import { CHANNEL } from '../support/relay-harness.js';
import {
  noStack,
  relayProcessPerTest,
  spawnRelayFor,
  startUntilExit,
} from '../support/spawn-relay.js';
import { expectReachedAfter, expectWaitingFor } from '../support/start-up-waits.js';
import { sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

/** A loopback port nothing listens on (yet). */
async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The network coming up: from now on `port` forwards every request to the stand-in. */
async function forward(port: number, to: string): Promise<Server> {
  const target = new URL(to);
  const server = createServer((req, res) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

/** HTTP mode: no app token, a signing secret and a port instead. */
const httpMode = async (slack: FakeSlack) => ({
  SLACK_APP_TOKEN: '',
  SLACK_SIGNING_SECRET: slack.signingSecret,
  PORT: String(await unusedPort()),
});

// RELAY_ESCALATE_TO checked at start: start-up-escalation.test.ts (a file of its own, so that
// the two run side by side).
describe('starting against Slack', () => {
  const fx = relayProcessPerTest('o7-start-up-');
  let forwarder: Server | undefined;

  afterEach(async () => {
    if (forwarder) await new Promise((resolve) => forwarder?.close(resolve));
    forwarder = undefined;
  });

  for (const mode of ['socket', 'http'] as const) {
    test(`a bot token Slack refuses ends the start with one message naming SLACK_BOT_TOKEN and exit 2 (${mode} mode)`, async () => {
      const { code, err } = await startUntilExit(fx, {
        ...(mode === 'http' ? await httpMode(fx.slack) : {}),
        SLACK_BOT_TOKEN: 'xoxb-1111-2222-revokedtoken',
      });
      assert.equal(code, 2, err);
      assert.match(
        err,
        /^The relay cannot start: Slack refused SLACK_BOT_TOKEN \(invalid_auth\)\.\n/,
      );
      assert.match(err, /Fix: SLACK_BOT_TOKEN is wrong, revoked, .*OAuth & Permissions/);
      assert.doesNotMatch(err, /revokedtoken/, 'the token is not echoed');
      assert.doesNotMatch(err, /Unhandled|unhandled/);
      noStack(err);
      assert.deepEqual(
        fx.slack.calls.map((c) => c.method),
        ['auth.test'],
        'nothing else was tried',
      );
    });
  }

  test('an app token Slack refuses ends the start with one message naming SLACK_APP_TOKEN and exit 2', async () => {
    const { code, err } = await startUntilExit(fx, { SLACK_APP_TOKEN: 'xapp-1-A0OTHER-3-notours' });
    assert.equal(code, 2, err);
    assert.match(
      err,
      /^The relay cannot start: Slack refused SLACK_APP_TOKEN \(invalid_auth\)\.\n/,
    );
    assert.match(err, /App-Level Tokens/);
    noStack(err);
    assert.equal(fx.slack.connectionsOpened, 0);
  });

  test('while Slack cannot be reached the relay waits: one warning when it starts, the tries at debug, one line when it is through, then it starts', async () => {
    const port = await unusedPort();
    fx.relay = spawnRelayFor(fx.slack, fx.root, {
      logLevel: 'debug',
      env: { SLACK_API_URL: `http://127.0.0.1:${port}/api/` },
    });
    // the first try, then two more (after 1 s and 2 s)
    const { warning, retries } = await expectWaitingFor(fx.relay, 'Slack', 2);
    assert.equal(warning?.reason, 'ECONNREFUSED');
    assert.equal(warning?.err, undefined, 'one line, without a stack');
    assert.match(String(warning?.msg), /check the network, proxies and SLACK_API_URL/);
    for (const retry of retries) assert.equal(retry.reason, 'ECONNREFUSED');

    forwarder = await forward(port, fx.slack.apiUrl);
    await fx.relay.waitForLog('relay ready');
    expectReachedAfter(fx.relay, 'Slack', 3000);
    await writeQuestionFile(path.join(fx.root, 'runs', 'run-late'), 1, sampleBatch(1));
    await waitFor(() => fx.slack.messages(CHANNEL)[0], 'the batch posted once Slack is reachable');
    noStack(fx.relay.stderr());
  });

  // Node ends a process on SIGUSR2 unless it handles it; `doctor` sends it to the pid in the
  // state-folder lock, which a starting relay already holds.
  test('a request to show refused batches again (SIGUSR2, as doctor sends) while the relay starts does not end it, and is done once it runs', async () => {
    const port = await unusedPort();
    fx.relay = spawnRelayFor(fx.slack, fx.root, {
      logLevel: 'info',
      env: { SLACK_API_URL: `http://127.0.0.1:${port}/api/` },
    });
    await waitFor(
      () => fx.relay?.logs.find((l) => String(l.msg).startsWith('Slack cannot be reached')),
      'the relay waiting for Slack',
    );
    fx.relay.child.kill('SIGUSR2');
    const outcome = await Promise.race([
      fx.relay
        .waitForLog(
          'asked to show the batches Slack refused again while starting; doing so once started',
        )
        .then(() => 'kept for later'),
      fx.relay.exited.then(({ code, signal }) => `ended (${signal ?? code})`),
    ]);
    assert.equal(outcome, 'kept for later');
    assert.equal(fx.relay.child.exitCode, null, 'still starting');

    forwarder = await forward(port, fx.slack.apiUrl);
    const ready = await fx.relay.waitForLog('relay ready');
    const retried = await fx.relay.waitForLog('showing the batches Slack refused again');
    assert.ok(fx.relay.logs.indexOf(retried) > fx.relay.logs.indexOf(ready), 'done once running');
    noStack(fx.relay.stderr());
  });
});
