import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ACTION_KINDS } from '../../src/core/slack/controls/ids.js';
import { SOCKET_CONNECTIONS } from '../../src/slack/transport/socket-receiver.js';
import { needsRedis } from '../support/redis-server.js';
import { ALICE, allConnected, BOB, CHANNEL, elementsOf } from '../support/relay-harness.js';
import {
  allBackOnRedis,
  answerFile,
  EXPECTED,
  hasAnswerFile,
  messageOfRun,
  postedBatches,
  runOf,
  type SharedNode,
  sampleClicks,
  sharedClusterPerTest,
} from '../support/shared-relays.js';
import { sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

describe('shared mode: a relay killed, Redis restarted or away', needsRedis, () => {
  const cluster = sharedClusterPerTest();

  test('the owning relay killed mid-batch: the rest is answered through the others, written when it is back', async () => {
    const { slack, nodes } = await cluster.start();
    const [owner] = nodes as [SharedNode];
    const run = runOf(owner, 'run-killed');
    await writeQuestionFile(run, 1, sampleBatch(1));
    const { ts } = await messageOfRun(slack, owner, 'run-killed');
    const clicks = sampleClicks(slack, ts);
    await clicks.chooseCsv(ALICE);
    await clicks.chooseTargets(ALICE, ['1']);
    await waitFor(clicks.oneTargetShown, 'both drafts shown by the owner');
    const connected = await allConnected(slack, nodes.length);
    await owner.relay.kill('SIGKILL');
    // until the stand-in sees its sockets close, it may still hand a click to the dead relay
    await waitFor(
      () => slack.connectionCount === connected - SOCKET_CONNECTIONS,
      'the stand-in sees the killed relay disconnect',
    );

    // the other two relays take every click now
    await clicks.sayNo(BOB);
    await clicks.write(BOB, 'while it was down', { shown: false });
    await clicks.submit(BOB);
    const told = await waitFor(
      () => slack.ephemerals(BOB).find((e) => /node-a/.test(e.text)),
      'Bob told the machine holding the run is away',
    );
    assert.match(told.text, /kept|written when/i);
    // and everyone sees it under the message, once, whoever pressed Submit
    const note = await waitFor(
      () =>
        slack
          .messages(CHANNEL)
          .find((m) => m.ts === ts)
          ?.replies.find((r) => /on node-a/.test(r.text)),
      'a note in the thread that the answers wait for node-a',
    );
    assert.match(note.text, /kept/);
    assert.equal(await hasAnswerFile(run), false, 'no answer file while its relay is down');

    owner.restart();
    await owner.relay.waitForLog('relay ready');
    const file = await answerFile(run);
    assert.deepEqual(
      file.answers.map((a) => a.answer),
      EXPECTED('while it was down'),
    );
    await waitFor(() => elementsOf(clicks.blocks()).length === 0, 'message shows it answered');
    assert.equal(postedBatches(slack), 1, 'nothing posted twice');
  });

  test('Redis restarted mid-batch keeps everything; Redis down for 10 s: clicks are told to retry, relays recover alone', async () => {
    const { slack, nodes } = await cluster.start();
    const owner = nodes[2] as SharedNode;
    const run = runOf(owner, 'run-outage');
    await writeQuestionFile(run, 1, sampleBatch(1));
    const { ts } = await messageOfRun(slack, owner, 'run-outage');
    const clicks = sampleClicks(slack, ts);
    await clicks.chooseCsv(ALICE);
    await waitFor(
      () => clicks.find(ACTION_KINDS.choose).element.initial_option,
      'first choice shown',
    );

    // a restart (AOF on): the choice made before it is still there afterwards
    await cluster.redis.restart();
    await allBackOnRedis(nodes, 1);

    // down for 10 s: every click meanwhile is answered "try again", nothing is changed
    await cluster.redis.stop();
    const downSince = Date.now();
    // more clicks than the 3 relays could log connection losses for (4 each, below): a relay
    // logging once per click would go over on at least one of them
    const tries = 13;
    for (let i = 0; i < tries; i += 1) {
      await clicks.chooseTargets(BOB, ['2']);
    }
    await waitFor(
      () =>
        slack.ephemerals(BOB).filter((e) => /try again in a moment/.test(e.text)).length >= tries,
      'every click during the outage told to try again',
    );
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, 10_000 - (Date.now() - downSince))),
    );
    await cluster.redis.restart();
    // the relays come back by themselves (each of their connections); the same clicks work
    await allBackOnRedis(nodes, 2);
    await waitFor(async () => {
      await clicks.chooseTargets(BOB, ['1']);
      return clicks.oneTargetShown();
    }, 'a click after the outage saved and shown');
    await clicks.sayNo(BOB);
    await clicks.write(BOB, 'after the outage');
    await clicks.submit(BOB);
    const file = await answerFile(run);
    assert.deepEqual(
      file.answers.map((a) => a.answer),
      EXPECTED('after the outage'),
    );
    assert.equal(postedBatches(slack), 1);
    // the outage is logged once per connection, not once per click
    for (const node of nodes) {
      const lost = node.relay.logs.filter((l) => String(l.msg).startsWith('Redis connection lost'));
      // two outages, two connections: at most one line each, however many clicks came
      assert.ok(
        lost.length >= 2 && lost.length <= 4,
        `${node.name} logged the outage ${lost.length} times`,
      );
    }
  });
});
