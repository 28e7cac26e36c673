import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { batchKey } from '../../src/core/batch/batch-key.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { needsRedis, type RedisTestServer, startRedisServer } from '../support/redis-server.js';
import { ALICE, BOB, CHANNEL, elementsOf, freePort } from '../support/relay-harness.js';
import { startRoundRobinProxy } from '../support/round-robin-proxy.js';
import {
  answerFile,
  hasAnswerFile,
  postedBatches,
  type SharedNode,
  sampleClicks,
  startSharedNodes,
} from '../support/shared-relays.js';
import { type RelayProcess, spawnRelayFor } from '../support/spawn-relay.js';
import { makeTempDir, sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const NAMES = ['node-a', 'node-b', 'node-c'] as const;
const EXPECTED = (notes: string) => ['CSV', ['ios'], notes, false];

/**
 * Socket Mode envelopes spread evenly over the open connections (a low-discrepancy sequence),
 * so every relay takes clicks on every node's batches, whatever else the stand-in draws.
 */
function inTurn(): () => number {
  let i = 0;
  return () => {
    i += 1;
    return ((i * 0.618034) % 1) * 0.999;
  };
}

/**
 * Waits until every connection of every relay that lost Redis has it back, after `outages`
 * outages (each relay has two connections, and each logs its outage once).
 */
function allBackOnRedis(nodes: readonly SharedNode[], outages: number) {
  const count = (node: SharedNode, msg: string) =>
    node.relay.logs.filter((l) => String(l.msg).startsWith(msg)).length;
  return Promise.all(
    nodes.map((node) =>
      waitFor(
        () => {
          const lost = count(node, 'Redis connection lost');
          return lost >= outages && count(node, 'Redis connection is back') >= lost;
        },
        `${node.name} back on Redis after ${outages} outage(s)`,
        30_000,
      ),
    ),
  );
}

/** Answers the whole sample batch in message `ts` as `user`, then presses Submit. */
async function answerSample(slack: FakeSlack, ts: string, user: string, notes: string) {
  const clicks = sampleClicks(slack, ts);
  await clicks.chooseCsv(user);
  await clicks.chooseTargets(user, ['1']);
  await clicks.sayNo(user);
  // the owner shows every choice (another relay may have taken it) before Submit is pressed
  await clicks.write(user, notes);
  await clicks.submit(user);
}

/** The channel message of a node's run (its first batch), once posted. */
function messageOfRun(slack: FakeSlack, node: SharedNode, run: string) {
  return waitFor(
    () =>
      slack
        .messages(CHANNEL)
        .find((m) => JSON.stringify(m.blocks).includes(run) || m.text.includes(run)),
    `the batch of ${node.name}/${run} posted`,
    30_000,
  );
}

describe('shared mode: three relays on one Redis and one Slack app', needsRedis, () => {
  let redis: RedisTestServer;
  let slack: FakeSlack;
  let base: string;
  let cleanup: () => Promise<void>;
  let nodes: SharedNode[] = [];

  beforeEach(async () => {
    ({ dir: base, cleanup } = await makeTempDir('o7-shared-'));
    redis = await startRedisServer({ aof: true });
  });
  afterEach(async () => {
    if (process.env.SHARED_TEST_LOGS) {
      for (const node of nodes) {
        const tail = node.relay.logs
          .filter((l) => l.component !== 'bolt')
          .map(
            (l) =>
              `${l.time} ${l.level} ${l.component} ${l.msg} ${l.key ?? ''} ${l.kind ?? ''} ${l.outcome ?? ''} ${l.owner ?? ''} ${l.reason ?? ''}`,
          );
        appendFileSync(
          process.env.SHARED_TEST_LOGS,
          `${node.name}:\n${tail.join('\n')}\n${node.relay.stderr().slice(-800)}\n`,
        );
      }
    }
    await Promise.all(nodes.map((node) => node.relay.kill()));
    nodes = [];
    await slack?.close();
    await redis.dispose();
    await cleanup();
  });

  const runOf = (node: SharedNode, name: string) => path.join(node.root, 'runs', name);

  test('Socket Mode: batches of every node are answered by clicks that land on any relay', async () => {
    slack = await startFakeSlack({ pickConnection: inTurn() });
    nodes = await startSharedNodes(slack, { base, redisUrl: redis.url, names: NAMES });
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
    slack = await startFakeSlack();
    const ports = [await freePort(), await freePort(), await freePort()];
    const proxy = await startRoundRobinProxy(ports);
    try {
      nodes = await startSharedNodes(slack, {
        base,
        redisUrl: redis.url,
        names: NAMES,
        httpPorts: ports,
        requestUrl: proxy.url,
      });
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

  test('the owning relay killed mid-batch: the rest is answered through the others, written when it is back', async () => {
    slack = await startFakeSlack({ pickConnection: inTurn() });
    nodes = await startSharedNodes(slack, { base, redisUrl: redis.url, names: NAMES });
    const [owner] = nodes as [SharedNode];
    const run = runOf(owner, 'run-killed');
    await writeQuestionFile(run, 1, sampleBatch(1));
    const { ts } = await messageOfRun(slack, owner, 'run-killed');
    const clicks = sampleClicks(slack, ts);
    await clicks.chooseCsv(ALICE);
    await clicks.chooseTargets(ALICE, ['1']);
    await waitFor(() => {
      const chosen = clicks.find('o7.choose-many').element.initial_options;
      return Array.isArray(chosen) && chosen.length === 1;
    }, 'both drafts shown by the owner');
    await owner.relay.kill('SIGKILL');

    // the other two relays take every click now
    await clicks.sayNo(BOB);
    await clicks.write(BOB, 'while it was down', { shown: false });
    await clicks.submit(BOB);
    const told = await waitFor(
      () => slack.ephemerals(BOB).find((e) => /node-a/.test(e.text)),
      'Bob told the machine holding the run is away',
      30_000,
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

  test('two people on two relays at the same instant: no choice lost, one answer file', async () => {
    slack = await startFakeSlack({ pickConnection: inTurn() });
    nodes = await startSharedNodes(slack, { base, redisUrl: redis.url, names: NAMES });
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
    await waitFor(() => {
      const many = clicks.find('o7.choose-many').element.initial_options;
      const one = clicks.find('o7.choose').element.initial_option;
      return Array.isArray(many) && many.length === 1 && one !== undefined;
    }, 'both choices shown');
    await clicks.write(ALICE, 'raced');
    await Promise.all([clicks.submit(ALICE), clicks.submit(BOB)]);
    const file = await answerFile(run);
    assert.deepEqual(
      file.answers.map((a) => a.answer),
      EXPECTED('raced'),
    );
    assert.equal(postedBatches(slack), 1);
  });

  test('Redis restarted mid-batch keeps everything; Redis down for 10 s: clicks are told to retry, relays recover alone', async () => {
    slack = await startFakeSlack({ pickConnection: inTurn() });
    nodes = await startSharedNodes(slack, { base, redisUrl: redis.url, names: NAMES });
    const owner = nodes[2] as SharedNode;
    const run = runOf(owner, 'run-outage');
    await writeQuestionFile(run, 1, sampleBatch(1));
    const { ts } = await messageOfRun(slack, owner, 'run-outage');
    const clicks = sampleClicks(slack, ts);
    await clicks.chooseCsv(ALICE);
    await waitFor(() => clicks.find('o7.choose').element.initial_option, 'first choice shown');

    // a restart (AOF on): the choice made before it is still there afterwards
    await redis.restart();
    await allBackOnRedis(nodes, 1);

    // down for 10 s: every click meanwhile is answered "try again", nothing is changed
    await redis.stop();
    const downSince = Date.now();
    const tries = 3;
    for (let i = 0; i < tries; i += 1) {
      await clicks.chooseTargets(BOB, ['2']);
    }
    await waitFor(
      () =>
        slack.ephemerals(BOB).filter((e) => /try again in a moment/.test(e.text)).length >= tries,
      'every click during the outage told to try again',
      20_000,
    );
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, 10_000 - (Date.now() - downSince))),
    );
    await redis.restart();
    // the relays come back by themselves (each of their connections); the same clicks work
    await allBackOnRedis(nodes, 2);
    await waitFor(
      async () => {
        await clicks.chooseTargets(BOB, ['1']);
        const chosen = clicks.find('o7.choose-many').element.initial_options;
        return Array.isArray(chosen) && chosen.length === 1;
      },
      'a click after the outage saved and shown',
      30_000,
    );
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
        lost.length >= 1 && lost.length <= 4,
        `${node.name} logged the outage ${lost.length} times`,
      );
    }
  });
});

describe('shared mode: a relay that cannot join', needsRedis, () => {
  let slack: FakeSlack;
  let base: string;
  let cleanup: () => Promise<void>;
  const servers: RedisTestServer[] = [];
  const relays: RelayProcess[] = [];

  beforeEach(async () => {
    slack = await startFakeSlack();
    ({ dir: base, cleanup } = await makeTempDir('o7-shared-start-'));
  });
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.kill()));
    await Promise.all(servers.splice(0).map((server) => server.dispose()));
    await slack.close();
    await cleanup();
  });

  const start = async (name: string, env: Record<string, string>) => {
    const root = path.join(base, name);
    await mkdir(path.join(root, 'runs'), { recursive: true });
    const relay = spawnRelayFor(slack, root, { env });
    relays.push(relay);
    return relay;
  };

  test('Redis unreachable or refusing the password: exit 2, saying which, without the password', async () => {
    const unreachable = await start('a', {
      RELAY_REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      RELAY_NODE: 'node-a',
    });
    assert.equal((await unreachable.exited).code, 2);
    assert.match(unreachable.stderr(), /RELAY_REDIS_URL/);
    assert.match(unreachable.stderr(), /reach|refused the connection|ECONNREFUSED/i);

    const locked = await startRedisServer({ password: 'right-secret' });
    servers.push(locked);
    const refused = await start('b', {
      RELAY_REDIS_URL: `redis://:wrong-secret@127.0.0.1:${locked.port}`,
      RELAY_NODE: 'node-b',
    });
    assert.equal((await refused.exited).code, 2);
    assert.match(refused.stderr(), /RELAY_REDIS_URL/);
    assert.match(refused.stderr(), /password|credentials|auth/i);
    assert.doesNotMatch(refused.stderr() + refused.stdout(), /wrong-secret/);
  });

  test('a second live relay with the same RELAY_NODE is refused, naming the variable', async () => {
    const redis = await startRedisServer();
    servers.push(redis);
    const first = await start('one', { RELAY_REDIS_URL: redis.url, RELAY_NODE: 'twin' });
    await first.waitForLog('relay ready');
    const second = await start('two', { RELAY_REDIS_URL: redis.url, RELAY_NODE: 'twin' });
    const { code } = await second.exited;
    assert.notEqual(code, 0);
    assert.match(second.stderr(), /RELAY_NODE=twin/);
    assert.equal(first.child.exitCode, null, 'the first relay keeps running');
  });
});
