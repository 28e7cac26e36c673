// Shared mode: a form submission replayed to another relay than the one that acted on it is
// caught there too, through the record the relays keep in Redis.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { handOffBatch } from '../e2e/relay-steps.js';
import { needsRedis } from '../support/redis-server.js';
import { ALICE, BOB, CHANNEL, freePort, type Mode } from '../support/relay-harness.js';
import { startRoundRobinProxy } from '../support/round-robin-proxy.js';
import {
  messageOfRun,
  runOf,
  type SharedNode,
  sharedClusterPerTest,
} from '../support/shared-relays.js';
import { sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { handOffNotices, REPLAYED, replay, viewIdOf } from './replay-steps.js';

/** Every relay's log lines with this message, each with the node that logged it. */
const linesOf = (nodes: readonly SharedNode[], msg: string) =>
  nodes.flatMap((node) =>
    node.relay.logs
      .filter((l) => l.msg === msg)
      .map((l): Record<string, unknown> & { node: string } => ({ ...l, node: node.name })),
  );

describe('shared mode: a replayed form submission changes nothing on any relay', needsRedis, () => {
  const cluster = sharedClusterPerTest();

  for (const mode of ['socket', 'http'] as const satisfies readonly Mode[]) {
    test(`${mode === 'socket' ? 'Socket Mode' : 'HTTP mode behind a round-robin proxy'}: a hand-off replayed to the other relays is handed off once`, async () => {
      const ports = mode === 'http' ? [await freePort(), await freePort(), await freePort()] : [];
      const proxy = mode === 'http' ? await startRoundRobinProxy(ports) : undefined;
      try {
        const { slack, nodes } = await cluster.start(
          proxy ? { httpPorts: ports, requestUrl: proxy.url } : undefined,
        );
        const [owner] = nodes as [SharedNode];
        await writeQuestionFile(runOf(owner, 'run-replay'), 1, sampleBatch(1));
        const message = await messageOfRun(slack, owner, 'run-replay');
        const { result } = await handOffBatch(slack, {
          channel: CHANNEL,
          ts: message.ts,
          from: ALICE,
          to: BOB,
        });
        assert.equal(result.acked, true);
        await waitFor(() => handOffNotices(slack, message.ts).length === 1, 'the hand-off told');
        await waitFor(() => linesOf(nodes, 'hand-off').length === 1, 'the hand-off recorded');
        // Envelopes take turns over the relays' connections (proxied requests over the
        // relays): each copy reaches another relay than the one before it.
        await replay(slack, mode, result.payload, 2);
        await waitFor(() => linesOf(nodes, REPLAYED).length === 2, 'both replays logged');
        const [acted, ...more] = linesOf(nodes, 'hand-off');
        assert.deepEqual(more, [], 'one relay acted on it, once');
        const caught = linesOf(nodes, REPLAYED);
        assert.ok(
          caught.some((l) => l.node !== acted?.node),
          `the replays reached only ${caught.map((l) => l.node).join(', ')}, which acted on it`,
        );
        assert.deepEqual(
          caught.map((l) => [l.level, l.view]),
          [
            [40, viewIdOf(result.payload)],
            [40, viewIdOf(result.payload)],
          ],
        );
        assert.equal(handOffNotices(slack, message.ts).length, 1, 'one notice in the thread');
        const copies = slack.calls.filter(
          (c) => c.method === 'conversations.open' && c.args.users === BOB,
        );
        assert.equal(copies.length, 1, 'one copy sent to Bob');
      } finally {
        await proxy?.close();
      }
    });
  }
});
