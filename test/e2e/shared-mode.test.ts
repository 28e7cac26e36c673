import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { batchKey } from '../../src/core/batch/batch-key.js';
import { deniedBecause } from '../../src/core/claude-code/permission-hook.js';
import { ACTION_KINDS, actionId } from '../../src/core/slack/controls/ids.js';
import { needsRedis } from '../support/redis-server.js';
import { ALICE, BOB, CHANNEL, freePort, visibleText } from '../support/relay-harness.js';
import { startRoundRobinProxy } from '../support/round-robin-proxy.js';
import {
  answerFile,
  answerSample,
  EXPECTED,
  messageOfRun,
  postedBatches,
  runOf,
  type SharedNode,
  sampleClicks,
  sharedClusterPerTest,
} from '../support/shared-relays.js';
import { sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { click } from './relay-steps.js';
import { askPermissionThroughHook, denyWithReason, hookPrompt } from './steps/hook-prompts.js';

// What goes wrong (a relay killed, Redis away) is in shared-mode-outages.test.ts, a relay that
// cannot join in shared-mode-join.test.ts: three files, so that they run side by side.
describe('shared mode: three relays on one Redis and one Slack app', needsRedis, () => {
  const cluster = sharedClusterPerTest();

  test('Socket Mode: batches of every node are answered by clicks that land on any relay', async () => {
    const { slack, nodes } = await cluster.start();
    for (const node of nodes)
      await writeQuestionFile(runOf(node, `run-${node.name}`), 1, sampleBatch(1));
    for (const [i, node] of nodes.entries()) {
      const message = await messageOfRun(slack, node, `run-${node.name}`);
      await answerSample(slack, message.ts, i % 2 === 0 ? ALICE : BOB, `from ${node.name}`);
    }
    for (const node of nodes) {
      const file = await answerFile(runOf(node, `run-${node.name}`));
      assert.deepEqual(
        file.answers.map((a) => a.answer),
        EXPECTED(`from ${node.name}`),
      );
    }
    // every batch posted exactly once, and every batch's clicks were taken by a relay that
    // does not hold it too (six clicks in a row spread over three connections reach them all)
    assert.equal(postedBatches(slack), 3);
    for (const owner of nodes) {
      const key = batchKey(runOf(owner, `run-${owner.name}`), 1, owner.name);
      const takenBy = nodes.filter((node) =>
        node.relay.logs.some((l) => l.msg === 'action' && l.key === key),
      );
      assert.ok(
        takenBy.some((node) => node !== owner),
        `clicks on ${owner.name}'s batch reached only ${takenBy.map((n) => n.name).join(', ')}`,
      );
    }
  });

  test('HTTP mode behind a round-robin proxy: signed requests to any relay, answers on the right node', async () => {
    const ports = [await freePort(), await freePort(), await freePort()];
    const proxy = await startRoundRobinProxy(ports);
    try {
      const { slack, nodes } = await cluster.start({ httpPorts: ports, requestUrl: proxy.url });
      for (const node of nodes)
        await writeQuestionFile(runOf(node, `run-${node.name}`), 1, sampleBatch(1));
      for (const node of nodes) {
        const message = await messageOfRun(slack, node, `run-${node.name}`);
        await answerSample(slack, message.ts, ALICE, `over http to ${node.name}`);
      }
      for (const node of nodes) {
        const file = await answerFile(runOf(node, `run-${node.name}`));
        assert.deepEqual(
          file.answers.map((a) => a.answer),
          EXPECTED(`over http to ${node.name}`),
        );
      }
      assert.equal(postedBatches(slack), 3);
      for (const port of ports)
        assert.ok((proxy.served.get(port) ?? 0) > 0, `relay on ${port} took requests`);
    } finally {
      await proxy.close();
    }
  });

  test('two people on two relays at the same instant: no choice lost, one answer file', async () => {
    const { slack, nodes } = await cluster.start();
    const [, owner] = nodes as [SharedNode, SharedNode];
    const run = runOf(owner, 'run-race');
    await writeQuestionFile(run, 1, sampleBatch(1));
    const { ts } = await messageOfRun(slack, owner, 'run-race');
    const clicks = sampleClicks(slack, ts);
    // consecutive envelopes go to different connections, so these race on different relays
    await Promise.all([
      clicks.chooseCsv(ALICE),
      clicks.chooseTargets(BOB, ['1']),
      clicks.sayNo(ALICE),
    ]);
    await waitFor(
      () => clicks.oneTargetShown() && clicks.find(ACTION_KINDS.choose).element.initial_option,
      'both choices shown',
    );
    await clicks.write(ALICE, 'raced');
    await Promise.all([clicks.submit(ALICE), clicks.submit(BOB)]);
    const file = await answerFile(run);
    assert.deepEqual(
      file.answers.map((a) => a.answer),
      EXPECTED('raced'),
    );
    assert.equal(postedBatches(slack), 1);
  });
  test("a Claude Code permission prompt denied with a reason on any relay: the reason reaches the hook on the prompt's own machine", async () => {
    const { slack, nodes } = await cluster.start();
    const [, owner] = nodes as [SharedNode, SharedNode];
    const hook = askPermissionThroughHook(path.join(owner.root, 'state'), owner.root, 'shared');
    const prompt = await hookPrompt(slack);
    const reason = 'not during the freeze';
    await denyWithReason(slack, prompt.ts, reason);
    assert.equal((await hook.exited).code, 0, hook.stderr());
    const decision = JSON.parse(hook.stdout());
    assert.deepEqual(decision.hookSpecificOutput.decision, {
      behavior: 'deny',
      message: deniedBecause(reason),
    });
    await waitFor(
      () =>
        visibleText(slack.message(CHANNEL, prompt.ts) ?? { text: '', blocks: [] }).includes(
          `Note: ${reason}`,
        ),
      'the message showing the reason',
    );
    const took = (msg: string) =>
      nodes.filter((node) => node.relay.logs.some((l) => l.msg === msg)).map((n) => n.name);
    // the relays' log lines come through their stdout, maybe after Slack's message changed
    const handlers = await waitFor(() => {
      const found = [...took('action'), ...took('modal text saved')];
      return found.length >= 2 ? found : undefined;
    }, 'the log lines of a relay that took the click and one that took the form');
    assert.ok(
      handlers.some((name) => name !== owner.name),
      `the click and the form reached only ${handlers.join(', ')}`,
    );
  });

  test("a permission prompt from a laptop asks node-b's ask API; allowed by a click any relay takes, the laptop's hook decides", async () => {
    const tokensFile = path.join(cluster.base, 'ask-tokens');
    const token = `laptop-${'5'.repeat(40)}`;
    await writeFile(tokensFile, `dev-laptop ${token}\n`);
    const port = await freePort();
    const { slack, nodes } = await cluster.start(undefined, {
      'node-b': { RELAY_ASK_PORT: String(port), RELAY_ASK_TOKENS: tokensFile },
    });
    const [, owner] = nodes as [SharedNode, SharedNode];
    const laptop = path.join(cluster.base, 'laptop');
    await mkdir(laptop, { recursive: true });
    const hook = askPermissionThroughHook(
      { url: `http://127.0.0.1:${port}`, token },
      laptop,
      'remote',
    );
    const prompt = await hookPrompt(slack);
    assert.match(visibleText(prompt), /asked by dev-laptop over the ask API/);
    await click(slack, prompt.ts, actionId(ACTION_KINDS.oneTap, 0, 0));
    assert.equal((await hook.exited).code, 0, hook.stderr());
    assert.match(hook.stdout(), /"behavior":"allow"/);
    const took = nodes.filter((node) => node.relay.logs.some((l) => l.msg === 'action'));
    assert.equal(took.length, 1);
    assert.ok(
      owner.relay.logs.some(
        (l) => l.msg === 'questions asked through the ask API' && l.asker === 'dev-laptop',
      ),
    );
    assert.ok(!JSON.stringify(nodes.map((n) => n.relay.logs)).includes(token), 'no token logged');
  });
});
