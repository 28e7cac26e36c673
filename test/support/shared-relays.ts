import { appendFileSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import { ACTION_KINDS, FREE_WRITE_INPUT } from '../../src/core/slack/controls/ids.js';
import { submitFormOf } from '../e2e/relay-steps.js';
import { type FakeSlack, startFakeSlack } from './fake-slack/index.js';
import { type RedisTestServer, startRedisServer } from './redis-server.js';
import { CHANNEL, elementsOf, findElement } from './relay-harness.js';
import { type RelayProcess, spawnRelayFor } from './spawn-relay.js';
import { makeTempDir } from './temp-dir.js';
import { waitFor } from './wait.js';

/** One machine of a shared-mode team: a relay process with its own run and state folders. */
export interface SharedNode {
  name: string;
  /** `<root>/runs` is watched, `<root>/state` holds its state folder */
  root: string;
  relay: RelayProcess;
  /** Starts the relay again (after a kill), with the same name and folders. */
  restart(): RelayProcess;
}

/**
 * Starts one relay per name on one Redis and one stand-in Slack (Socket Mode, or HTTP on the
 * given ports), each with its own folders under `base`, and waits until all are ready.
 */
async function startSharedNodes(
  slack: FakeSlack,
  opts: {
    base: string;
    redisUrl: string;
    names: readonly string[];
    httpPorts?: readonly number[];
    /** set after the relays start, e.g. a proxy in front of their HTTP ports */
    requestUrl?: string;
    /** more variables for some of the relays, by name (RELAY_ASK_PORT, say) */
    envOf?: Readonly<Record<string, Record<string, string>>>;
  },
): Promise<SharedNode[]> {
  const nodes = await Promise.all(
    opts.names.map(async (name, i) => {
      const root = path.join(opts.base, name);
      await mkdir(path.join(root, 'runs'), { recursive: true });
      const httpPort = opts.httpPorts?.[i];
      const spawn = () =>
        spawnRelayFor(slack, root, {
          ...(httpPort !== undefined ? { httpPort } : {}),
          env: { RELAY_REDIS_URL: opts.redisUrl, RELAY_NODE: name, ...opts.envOf?.[name] },
        });
      const node: SharedNode = {
        name,
        root,
        relay: spawn(),
        restart() {
          node.relay = spawn();
          return node.relay;
        },
      };
      return node;
    }),
  );
  if (opts.requestUrl) slack.setRequestUrl(opts.requestUrl);
  try {
    // three processes starting at once on a busy machine: give them time
    await Promise.all(
      nodes.map((node) =>
        waitFor(() => node.relay.logs.find((l) => l.msg === 'relay ready'), `${node.name} ready`),
      ),
    );
  } catch (error) {
    await Promise.all(nodes.map((node) => node.relay.kill()));
    const tails = nodes.map(
      (node) =>
        `${node.name}: ${node.relay.logs
          .slice(-8)
          .map((l) => `[${l.component ?? ''}] ${l.msg}`)
          .join(' | ')} ${node.relay.stderr().slice(-300)}`,
    );
    throw new Error(`${(error as Error).message}\n${tails.join('\n')}`);
  }
  return nodes;
}

/** Successful `chat.postMessage` calls that made a top-level message (not a thread reply). */
export function postedBatches(slack: FakeSlack): number {
  return slack.calls.filter(
    (c) =>
      c.method === 'chat.postMessage' &&
      (c.response as { ok?: boolean } | undefined)?.ok === true &&
      (c.args as { thread_ts?: unknown } | undefined)?.thread_ts === undefined,
  ).length;
}

/** The answer file of batch `seq` of a run once it is there, parsed. */
export function answerFile(runDir: string, seq = 1): Promise<{ answers: { answer: unknown }[] }> {
  const name = `q-answers-${String(seq).padStart(3, '0')}.json`;
  return waitFor(async () => {
    const names = await readdir(path.join(runDir, 'qa')).catch((): string[] => []);
    return (
      names.includes(name) && JSON.parse(await readFile(path.join(runDir, 'qa', name), 'utf8'))
    );
  }, `${name} in ${runDir}`);
}

/** Whether the run has an answer file for `seq` now. */
export async function hasAnswerFile(runDir: string, seq = 1): Promise<boolean> {
  const names = await readdir(path.join(runDir, 'qa')).catch((): string[] => []);
  return names.includes(`q-answers-${String(seq).padStart(3, '0')}.json`);
}

/**
 * People's clicks on the sample batch (`sampleBatch`) in the channel message `ts`, each one
 * a separate interaction that Slack may hand to any relay.
 */
export function sampleClicks(slack: FakeSlack, ts: string) {
  const blocks = () => slack.message(CHANNEL, ts)?.blocks ?? [];
  const find = (prefix: string) => findElement(blocks(), prefix);
  const at = (prefix: string, user: string) => {
    const found = find(prefix);
    return { channel: CHANNEL, ts, blockId: found.blockId, actionId: found.actionId, user };
  };
  const shows = (text: string) => JSON.stringify(blocks()).includes(text);
  return {
    blocks,
    find,
    shows,
    /** whether the message shows exactly one target chosen */
    oneTargetShown: () => {
      const chosen = find(ACTION_KINDS.chooseMany).element.initial_options;
      return Array.isArray(chosen) && chosen.length === 1;
    },
    /** "CSV" for the format */
    chooseCsv: (user: string) =>
      slack.selectOption({ ...at(ACTION_KINDS.choose, user), value: '1' }),
    /** the targets, by option index */
    chooseTargets: (user: string, values: string[]) =>
      slack.selectOptions({ ...at(ACTION_KINDS.chooseMany, user), values }),
    sayNo(user: string) {
      const no = elementsOf(blocks()).find(
        (e) => e.actionId.startsWith(ACTION_KINDS.yesNo) && e.element.value === 'no',
      );
      if (!no) throw new Error('the yes-no question has no No button');
      return slack.clickButton({
        channel: CHANNEL,
        ts,
        blockId: no.blockId,
        actionId: no.actionId,
        user,
      });
    },
    /**
     * Opens the free-write form, types `notes` and sends it; waits until the message shows it
     * (unless `shown: false`: nobody updates the message while its relay is down).
     */
    async write(user: string, notes: string, { shown = true } = {}) {
      const values = { [FREE_WRITE_INPUT.blockId]: { [FREE_WRITE_INPUT.actionId]: notes } };
      await submitFormOf(slack, ts, find(ACTION_KINDS.freeWrite).actionId, values, user);
      if (shown) await waitFor(() => shows(notes), 'typed text shown');
    },
    submit: (user: string) => slack.clickButton(at(ACTION_KINDS.submit, user)),
  };
}

const NAMES = ['node-a', 'node-b', 'node-c'] as const;

/** A run folder of a node, by name. */
export const runOf = (node: SharedNode, name: string) => path.join(node.root, 'runs', name);

/** The sample batch's answers as the shared-mode tests give them (see answerSample). */
export const EXPECTED = (notes: string) => ['CSV', ['ios'], notes, false];

/**
 * Socket Mode envelopes spread evenly over the open connections (a low-discrepancy sequence),
 * so every relay takes clicks on every node's batches, whatever else the stand-in draws.
 */
export function inTurn(): () => number {
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
export function allBackOnRedis(nodes: readonly SharedNode[], outages: number) {
  const count = (node: SharedNode, msg: string) =>
    node.relay.logs.filter((l) => String(l.msg).startsWith(msg)).length;
  return Promise.all(
    nodes.map((node) =>
      waitFor(() => {
        const lost = count(node, 'Redis connection lost');
        return lost >= outages && count(node, 'Redis connection is back') >= lost;
      }, `${node.name} back on Redis after ${outages} outage(s)`),
    ),
  );
}

/** Answers the whole sample batch in message `ts` as `user`, then presses Submit. */
export async function answerSample(slack: FakeSlack, ts: string, user: string, notes: string) {
  const clicks = sampleClicks(slack, ts);
  await clicks.chooseCsv(user);
  await clicks.chooseTargets(user, ['1']);
  await clicks.sayNo(user);
  // the owner shows every choice (another relay may have taken it) before Submit is pressed
  await clicks.write(user, notes);
  await clicks.submit(user);
}

/** The channel message of a node's run (its first batch), once posted. */
export function messageOfRun(slack: FakeSlack, node: SharedNode, run: string) {
  return waitFor(
    () =>
      slack
        .messages(CHANNEL)
        .find((m) => JSON.stringify(m.blocks).includes(run) || m.text.includes(run)),
    `the batch of ${node.name}/${run} posted`,
  );
}

/**
 * Per test: a temp folder and a real Redis (AOF on); `start` adds the stand-in and three
 * relays on it (Socket Mode with envelopes spread over the connections, or HTTP on the given
 * ports). All of it is stopped after the test. SHARED_TEST_LOGS=<file> appends each relay's
 * log to that file after each test, for a look at what happened.
 */
export function sharedClusterPerTest() {
  let redis: RedisTestServer | undefined;
  let slack: FakeSlack | undefined;
  let base = '';
  let cleanup = async () => {};
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
    slack = undefined;
    await redis?.dispose();
    await cleanup();
  });

  return {
    get redis(): RedisTestServer {
      if (!redis) throw new Error('sharedClusterPerTest: Redis starts before each test');
      return redis;
    },
    /** The folder the nodes' folders are in, for files they are given (a tokens file, say). */
    get base(): string {
      return base;
    },
    async start(
      http?: { httpPorts: readonly number[]; requestUrl: string },
      envOf?: Readonly<Record<string, Record<string, string>>>,
    ) {
      slack = await startFakeSlack(http ? {} : { pickConnection: inTurn() });
      nodes = await startSharedNodes(slack, {
        base,
        redisUrl: this.redis.url,
        names: NAMES,
        ...(http ?? {}),
        ...(envOf ? { envOf } : {}),
      });
      return { slack, nodes };
    },
  };
}
