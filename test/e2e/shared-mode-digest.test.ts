import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIGEST_CONTROLS } from '../../src/core/slack/controls/ids.js';
import type { FakeSlack } from '../support/fake-slack/index.js';
import { needsRedis } from '../support/redis-server.js';
import { ALICE, CHANNEL, freePort } from '../support/relay-harness.js';
import { startRoundRobinProxy } from '../support/round-robin-proxy.js';
import {
  answerFile,
  hasAnswerFile,
  runOf,
  type SharedNode,
  sharedClusterPerTest,
} from '../support/shared-relays.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { click } from './relay-steps.js';
import {
  confirmApproveAll,
  digestOf,
  lineControl,
  openApproveAll,
  waitForDigestSaying,
} from './steps/digest.js';

const yesNo = (run: string) => ({
  seq: 1,
  questions: [{ id: 'go', type: 'yes-no', prompt: `Deploy ${run}?` }],
});

/** Two runs on each node, each with one yes-no batch: `<node>-1`, `<node>-2`. */
async function twoRunsEach(nodes: readonly SharedNode[]) {
  for (const node of nodes)
    for (const n of [1, 2])
      await writeQuestionFile(runOf(node, `${node.name}-${n}`), 1, yesNo(`${node.name}-${n}`));
}

/** Digest messages ever posted in the channel. */
const digestsPosted = (slack: FakeSlack) =>
  slack.calls.filter(
    (c) =>
      c.method === 'chat.postMessage' &&
      (c.response as { ok?: boolean } | undefined)?.ok === true &&
      String((c.args as { text?: unknown }).text).includes('waiting for a quick answer'),
  ).length;

/** The nodes whose log says they keep the digests now. */
const keepers = (nodes: readonly SharedNode[]) =>
  nodes.filter((node) => {
    const said = node.relay.logs.filter((l) => String(l.msg).endsWith('keeping the digests'));
    return said.at(-1)?.msg === 'keeping the digests';
  });

// three relays, each its own Redis test: a file of its own so it runs beside the others
describe('shared mode: one digest for the team', needsRedis, () => {
  const cluster = sharedClusterPerTest();
  /** The same variables for every relay. */
  const everyNode = (env: Record<string, string>) =>
    Object.fromEntries(['node-a', 'node-b', 'node-c'].map((name) => [name, env]));

  test('HTTP mode: one digest lists every relay’s batches; a line answered and undone, then Approve all, with clicks landing on any relay', async () => {
    const ports = [await freePort(), await freePort(), await freePort()];
    const proxy = await startRoundRobinProxy(ports);
    try {
      const { slack, nodes } = await cluster.start(
        { httpPorts: ports, requestUrl: proxy.url },
        everyNode({ RELAY_UNDO_SECONDS: '2' }),
      );
      await twoRunsEach(nodes);
      const digest = await waitForDigestSaying(slack, '6 agents are waiting for a quick answer');
      assert.equal(keepers(nodes).length, 1, 'one relay keeps the digests');
      const [a, b, c] = nodes as [SharedNode, SharedNode, SharedNode];

      // node-c-1 answered from the digest (a click that may land on any relay), then undone
      await click(slack, digest.ts, lineControl(digest, 'node-c-1', DIGEST_CONTROLS.answer), ALICE);
      const held = await waitForDigestSaying(
        slack,
        '5 agents are waiting for a quick answer (1 answered, with Undo open for a moment)',
      );
      await click(slack, held.ts, lineControl(held, 'node-c-1', DIGEST_CONTROLS.undo), ALICE);
      const back = await waitForDigestSaying(slack, '6 agents are waiting for a quick answer');

      // Approve all of the other four, node-c-1 and node-a-2 unticked
      const opened = await openApproveAll(slack, back.ts, ALICE);
      assert.equal(opened.picks.flatMap((p) => p.options).length, 6, 'every relay’s batch listed');
      await confirmApproveAll(slack, opened, ALICE, new Set(['node-c-1', 'node-a-2']));
      for (const run of [
        runOf(a, 'node-a-1'),
        runOf(b, 'node-b-1'),
        runOf(b, 'node-b-2'),
        runOf(c, 'node-c-2'),
      ]) {
        assert.deepEqual(
          (await answerFile(run)).answers.map((x) => x.answer),
          [true],
        );
      }
      // node-c-1's undone answer was due before the four: it was never written, nor node-a-2's
      assert.equal(await hasAnswerFile(runOf(c, 'node-c-1')), false);
      assert.equal(await hasAnswerFile(runOf(a, 'node-a-2')), false);
      // two remain, fewer than RELAY_DIGEST_AT: the digest goes
      await waitFor(() => !digestOf(slack.messages(CHANNEL)), 'the digest removed');
      assert.equal(digestsPosted(slack), 1, 'one digest was posted, then edited in place');
    } finally {
      await proxy.close();
    }
  });

  test('Socket Mode: the keeper killed, another relay takes over the same digest message and keeps it in line', async () => {
    const { slack, nodes } = await cluster.start(undefined, everyNode({ RELAY_UNDO_SECONDS: '0' }));
    await twoRunsEach(nodes);
    const digest = await waitForDigestSaying(slack, '6 agents are waiting for a quick answer');
    const [keeper] = keepers(nodes);
    assert.ok(keeper && keepers(nodes).length === 1, 'one relay keeps the digests');
    // killed once it has recorded where the digest is (it logs that after the write to Redis)
    await waitFor(
      () => keeper.relay.logs.some((l) => l.msg === 'digest posted'),
      'the keeper recording its digest',
    );
    await keeper.relay.kill('SIGKILL');
    const live = nodes.filter((node) => node !== keeper) as [SharedNode, SharedNode];

    // a new batch on a live relay: once the lease has expired another relay lists it
    await writeQuestionFile(runOf(live[0], 'late'), 1, yesNo('late'));
    const taken = await waitForDigestSaying(slack, '7 agents are waiting for a quick answer');
    assert.equal(taken.ts, digest.ts, 'the same message, edited by the new keeper');
    assert.equal(keepers(live).length, 1, 'one of the others keeps the digests now');

    // a line of the other live relay's batch, answered through the digest
    const run = `${live[1].name}-1`;
    await click(slack, taken.ts, lineControl(taken, run, DIGEST_CONTROLS.answer), ALICE);
    assert.deepEqual(
      (await answerFile(runOf(live[1], run))).answers.map((x) => x.answer),
      [true],
    );
    await waitForDigestSaying(slack, '6 agents are waiting for a quick answer');
    assert.equal(digestsPosted(slack), 1, 'no second digest');
  });
});
