import { watch } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import { createClient } from '@redis/client';
import type { FakeSlack } from '../test/support/fake-slack/index.js';
import { startFakeSlack } from '../test/support/fake-slack/index.js';
import {
  findRedisServer,
  INSTALL_REDIS_HINT,
  type RedisTestServer,
  startRedisServer,
} from '../test/support/redis-server.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import {
  CHANNEL,
  hrNow,
  keyOfBlocks,
  ms,
  okPosts,
  percentile,
  type RelayChild,
  renameIntoPlace,
  startRelay,
  USER,
  until,
} from './bench-support.js';
import { duplicatePosts } from './latency-figures.js';

/**
 * Figure 8: shared mode (issue 13). Three relay processes (three nodes, each with its own run
 * and state folders) on one redis-server and one stand-in Slack, in HTTP mode so that the
 * bench chooses which relay each click reaches, as a load balancer (or Slack's choice of a
 * Socket Mode connection) would.
 *
 * 8a. Submit → answer file published on the owning node, pressed on a relay that does not
 *     hold the run, beside two floors measured in the same run: the same Submit pressed on
 *     the owning relay, and the bare Redis round trip the hand-over adds (XADD to a stream
 *     read by a blocked XREADGROUP, a PUBLISH back to the asker).
 * 8b. A burst: batches over three nodes' runs, each tapped through a random relay.
 */
export async function sharedLines(sizes: { samples: number; burst: number }): Promise<string[]> {
  if (!findRedisServer()) {
    return [
      `8.  shared mode: NOT RUN, redis-server is not on PATH; ${INSTALL_REDIS_HINT.replace('the tests', 'npm run bench')}`,
    ];
  }
  const lines: string[] = [];
  const spread = (values: number[]) =>
    `p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))}`;

  const submit = await withTeam(async (team) => measureSubmits(team, sizes.samples));
  const [load = 0] = loadavg();
  const bare = await measureBareRoundTrip(sizes.samples * 5);
  lines.push(
    `8a. Submit → q-answers published on the owning node, pressed on another relay, ${submit.across.length} batches: ${spread(submit.across)} (load ${load.toFixed(1)})  (target p50 ≤ 25 ms)`,
    `    floors: the same Submit on the owning relay ${spread(submit.owner)}; bare XADD → XREADGROUP → PUBLISH round trip ${spread(bare)}`,
  );

  const burst = await withTeam((team) => measureSharedBurst(team, sizes.burst));
  lines.push(
    `8b. burst of ${burst.batches} batches over ${burst.runs} runs on 3 nodes, each tapped through a random relay (${burst.across} through another relay than the run's): posted ${burst.posted}, duplicate posts ${burst.duplicates}, lost ${burst.lost} (answer files ${burst.answerFiles}, wrong ${burst.wrong}), ${burst.seconds.toFixed(1)} s  (target 0 lost, 0 duplicates)`,
  );
  return lines;
}

const NODES = ['node-a', 'node-b', 'node-c'] as const;

/** One machine of the team: its relay, and where it watches. */
interface Node {
  name: string;
  runs: string;
  url: string;
  relay: RelayChild;
}

interface Team {
  slack: FakeSlack;
  redis: RedisTestServer;
  nodes: Node[];
  /** Sends the next interaction to `node`'s relay (HTTP mode: the stand-in's request URL). */
  route(node: Node): void;
}

/**
 * Starts a redis-server (AOF off: the figure is about the relays, not the disk), a stand-in
 * Slack and three relays, runs `work`, and stops everything.
 */
async function withTeam<T>(work: (team: Team) => Promise<T>): Promise<T> {
  const { dir, cleanup } = await makeTempDir('o7-bench-shared-');
  const redis = await startRedisServer();
  const slack = await startFakeSlack({ now: hrNow });
  const nodes: Node[] = [];
  try {
    for (const name of NODES) {
      const root = path.join(dir, name);
      const runs = path.join(root, 'runs');
      await mkdir(runs, { recursive: true });
      const port = await freePort();
      const relay = startRelay(slack, root, {
        SLACK_APP_TOKEN: '',
        SLACK_SIGNING_SECRET: slack.signingSecret,
        PORT: String(port),
        RELAY_REDIS_URL: redis.url,
        RELAY_NODE: name,
      });
      nodes.push({ name, runs, url: `http://127.0.0.1:${port}/slack/events`, relay });
    }
    const team: Team = { slack, redis, nodes, route: (node) => slack.setRequestUrl(node.url) };
    // Ready when each relay has posted a batch of its own (its queue and work stream run).
    const before = okPosts(slack).length;
    for (const node of nodes) {
      await renameIntoPlace(path.join(node.runs, 'ready'), 1, oneTap(node.name, 'ready', 1));
    }
    await until(
      () => okPosts(slack).length >= before + nodes.length || undefined,
      'every relay posting',
      60_000,
    );
    return await work(team);
  } finally {
    await Promise.all(nodes.map((node) => node.relay.stop()));
    await slack.close();
    await redis.dispose();
    await cleanup();
  }
}

/** A one-question batch whose prompt names its node and run, so a post tells its owner. */
function oneTap(node: string, run: string, seq: number) {
  return {
    seq,
    questions: [{ id: 'go', type: 'yes-no', prompt: `${node}/${run} step ${seq}: proceed?` }],
  };
}

/** Two yes/no questions: answered by two clicks, then Submit. */
function twoQuestions(seq: number) {
  return {
    seq,
    questions: [
      { id: 'build', type: 'yes-no', prompt: `Build step ${seq}?` },
      { id: 'ship', type: 'yes-no', prompt: `Ship step ${seq}?` },
    ],
  };
}

type Block = { block_id?: string; elements?: { action_id?: string; value?: string }[] };

/** The element of a posted or updated message whose action id starts with `prefix`. */
function elementOf(blocks: unknown, prefix: string, value?: string) {
  const found = ((blocks as Block[] | undefined) ?? [])
    .flatMap((b) => (b.elements ?? []).map((e) => ({ blockId: String(b.block_id), ...e })))
    .find((e) => e.action_id?.startsWith(prefix) && (value === undefined || e.value === value));
  if (!found?.action_id) throw new Error(`bench: no ${prefix} element in the message`);
  return { blockId: found.blockId, actionId: found.action_id };
}

/** chat.update calls on message `ts` so far. */
const updatesOf = (slack: FakeSlack, ts: string) =>
  slack.calls.filter(
    (c) => c.method === 'chat.update' && (c.args as { ts?: string }).ts === ts && c.status === 200,
  ).length;

/**
 * 8a: `count` batches of node-a's one run, in a row, each sample starting with the relays idle.
 * Each batch's two choices are made on the owning relay and shown; Submit is then pressed on
 * another relay (node-b and node-c in turn) or, every other batch, on the owning relay.
 */
async function measureSubmits(team: Team, count: number) {
  const { slack, nodes } = team;
  const [owner, ...others] = nodes as [Node, Node, Node];
  const runDir = path.join(owner.runs, 'submits');
  const qa = path.join(runDir, 'qa');
  await mkdir(qa, { recursive: true });
  const published = new Map<string, number>();
  const watcher = watch(qa, (_event, name) => {
    if (name?.startsWith('q-answers-') && !published.has(name)) published.set(name, hrNow());
  });
  const across: number[] = [];
  const onOwner: number[] = [];
  const warmUp = 20;
  try {
    for (let i = 0; i < 2 * count + warmUp; i += 1) {
      const seq = i + 1;
      const postsBefore = okPosts(slack).length;
      await renameIntoPlace(runDir, seq, twoQuestions(seq));
      const post = await until(() => okPosts(slack)[postsBefore], `post of batch ${seq}`);
      const ts = String((post.response as { ts?: string }).ts);
      const click = (blocks: unknown, prefix: string, value?: string) =>
        slack.clickButton({
          channel: CHANNEL,
          ts,
          user: USER,
          ...elementOf(blocks, prefix, value),
        });

      team.route(owner);
      const shown = updatesOf(slack, ts);
      await click(post.args.blocks, 'o7.yes-no', 'yes');
      await until(() => updatesOf(slack, ts) > shown || undefined, 'first choice shown');
      const current = () => slack.message(CHANNEL, ts)?.blocks;
      // the second question's buttons: the blocks with yes/no buttons after the first's
      const yesNoBlocks = ((current() as Block[] | undefined) ?? []).filter((b) =>
        (b.elements ?? []).some((e) => e.action_id?.startsWith('o7.yes-no')),
      );
      await click(yesNoBlocks.slice(1), 'o7.yes-no', 'no');
      await until(() => updatesOf(slack, ts) > shown + 1 || undefined, 'second choice shown');

      const isAcross = i % 2 === 0;
      team.route(isAcross ? (others[(i >> 1) % 2] as Node) : owner);
      const final = updatesOf(slack, ts);
      const name = `q-answers-${String(seq).padStart(3, '0')}.json`;
      const pressedAt = hrNow();
      await click(current(), 'o7.submit');
      const writtenAt = await until(() => published.get(name), `answer file ${name}`);
      if (i >= warmUp) (isAcross ? across : onOwner).push(writtenAt - pressedAt);
      await until(() => updatesOf(slack, ts) > final || undefined, `final message of ${seq}`);
      const file = JSON.parse(await readFile(path.join(qa, name), 'utf8')) as {
        answers: { answer: unknown }[];
      };
      const answers = file.answers.map((a) => a.answer);
      if (answers[0] !== true || answers[1] !== false) {
        throw new Error(`bench: ${name} holds ${JSON.stringify(answers)}, not [true, false]`);
      }
    }
  } finally {
    watcher.close();
  }
  return { across, owner: onOwner };
}

/**
 * The floor under 8a's hand-over: what Redis itself costs for one request and its reply on
 * loopback, with the relay's shape (a stream read by a consumer group, replies on a channel)
 * and none of its work.
 */
async function measureBareRoundTrip(count: number): Promise<number[]> {
  const redis = await startRedisServer();
  const clients = [0, 1, 2].map(() =>
    createClient({ url: redis.url, socket: { reconnectStrategy: false } }),
  );
  const [asker, reader, replier] = clients as [
    ReturnType<typeof createClient>,
    ReturnType<typeof createClient>,
    ReturnType<typeof createClient>,
  ];
  for (const client of clients) client.on('error', () => undefined);
  try {
    await Promise.all(clients.map((client) => client.connect()));
    const stream = 'bench:work';
    await reader.xGroupCreate(stream, 'relay', '0', { MKSTREAM: true });
    let stopped = false;
    const serving = (async () => {
      while (!stopped) {
        const read = (await reader.xReadGroup(
          'relay',
          'owner',
          { key: stream, id: '>' },
          { COUNT: 10, BLOCK: 200 },
        )) as { messages: { id: string; message: Record<string, string> }[] }[] | null;
        for (const { messages } of read ?? []) {
          for (const entry of messages) {
            await replier.publish('bench:replies', String(entry.message.id));
            await reader.xAck(stream, 'relay', entry.id);
            await reader.xDel(stream, entry.id);
          }
        }
      }
    })();
    const waiting = new Map<string, () => void>();
    const subscriber = asker.duplicate();
    subscriber.on('error', () => undefined);
    await subscriber.connect();
    await subscriber.subscribe('bench:replies', (id) => waiting.get(id)?.());
    const times: number[] = [];
    for (let i = 0; i < count + 100; i += 1) {
      const id = String(i);
      const replied = new Promise<void>((resolve) => waiting.set(id, resolve));
      const started = performance.now();
      await asker.xAdd(stream, '*', { id });
      await replied;
      if (i >= 100) times.push(performance.now() - started);
      waiting.delete(id);
    }
    stopped = true;
    await serving;
    subscriber.destroy();
    return times;
  } finally {
    for (const client of clients) client.destroy();
    await redis.dispose();
  }
}

/**
 * 8b: `total` one-tap batches written at once over runs of five batches, the runs dealt to the
 * three nodes in turn. Every post is tapped as soon as it appears, through a random relay, Yes
 * for odd steps and No for even ones; then every answer file is read back.
 */
async function measureSharedBurst(team: Team, total: number) {
  const { slack, nodes } = team;
  const perRun = 5;
  const runs = Math.ceil(total / perRun);
  const startedAt = Date.now();
  const firstPost = okPosts(slack).length;
  const planned: { node: Node; runDir: string; run: string; seq: number }[] = [];
  for (let r = 0; r < runs; r += 1) {
    const node = nodes[r % nodes.length] as Node;
    const run = `burst-${String(r).padStart(3, '0')}`;
    for (let seq = 1; seq <= perRun && planned.length < total; seq += 1) {
      planned.push({ node, runDir: path.join(node.runs, run), run, seq });
    }
  }
  for (const { node, runDir, run, seq } of planned) {
    await renameIntoPlace(runDir, seq, oneTap(node.name, run, seq));
  }
  const tapped = new Set<string>();
  let across = 0;
  const taps: Promise<unknown>[] = [];
  await until(
    () => {
      for (const post of okPosts(slack).slice(firstPost)) {
        const ts = String((post.response as { ts?: string }).ts);
        if (tapped.has(ts)) continue;
        tapped.add(ts);
        const text = JSON.stringify(post.args.blocks);
        const [, owner, seq] = /(node-[a-c])\/burst-\d+ step (\d+)/.exec(text) ?? [];
        const answer = Number(seq) % 2 === 1 ? 'yes' : 'no';
        const target = nodes[Math.floor(Math.random() * nodes.length)] as Node;
        if (target.name !== owner) across += 1;
        const element = elementOf(post.args.blocks, 'o7.one-tap', answer);
        // the request URL is read as the click is sent, so routing and click go together
        team.route(target);
        taps.push(slack.clickButton({ channel: CHANNEL, ts, user: USER, ...element }));
      }
      return tapped.size >= total || undefined;
    },
    'burst posted',
    300_000,
  );
  await Promise.all(taps);
  const answered = async () => {
    let count = 0;
    for (const runDir of new Set(planned.map((p) => p.runDir))) {
      const names = await readdir(path.join(runDir, 'qa'));
      count += names.filter((n) => n.startsWith('q-answers-')).length;
    }
    return count;
  };
  let answerFiles = await answered();
  while (answerFiles < total && Date.now() - startedAt < 300_000) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    answerFiles = await answered();
  }
  const seconds = (Date.now() - startedAt) / 1000;
  let lost = 0;
  let wrong = 0;
  for (const { runDir, seq } of planned) {
    const file = path.join(runDir, 'qa', `q-answers-${String(seq).padStart(3, '0')}.json`);
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) {
      lost += 1;
      continue;
    }
    const answer = (JSON.parse(text) as { answers: { answer: unknown }[] }).answers[0]?.answer;
    if (answer !== (seq % 2 === 1)) wrong += 1;
  }
  const burstKeys = new Set(
    okPosts(slack)
      .slice(firstPost)
      .map((p) => keyOfBlocks(p.args.blocks)),
  );
  return {
    batches: total,
    runs,
    across,
    posted: burstKeys.size,
    duplicates: duplicatePosts(slack).length,
    answerFiles,
    lost,
    wrong,
    seconds,
  };
}

/** A loopback port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
