import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import { type RunningRelay, runStart, type StartOptions } from '../../src/cli/start-command.js';
import type { Config } from '../../src/config/config-schema.js';
import { SOCKET_CONNECTIONS } from '../../src/slack/transport/socket-receiver.js';
import { type FakeSlack, startFakeSlack } from './fake-slack/index.js';
import type { ObservedMessage } from './fake-slack/types.js';
import { quietLog } from './log-capture.js';
import { makeTempDir } from './temp-dir.js';
import { waitFor } from './wait.js';

export const CHANNEL = 'C0RELAY01';
export const ALICE = 'U0ALICE01';
export const BOB = 'U0BOB0001';

export type Mode = 'socket' | 'http';

/** A free loopback port, for HTTP mode. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

/** The relay's configuration pointed at a stand-in and a temp folder. */
export function configFor(slack: FakeSlack, root: string, mode: Mode, port = 0): Config {
  return {
    slack: {
      botToken: slack.botToken,
      channelId: CHANNEL,
      apiUrl: slack.apiUrl,
      ...(mode === 'socket'
        ? { mode, appToken: slack.appToken }
        : { mode, signingSecret: slack.signingSecret, port }),
    },
    watch: [{ path: path.join(root, 'runs'), channel: CHANNEL }],
    stateDir: path.join(root, 'state'),
    poll: false,
    logLevel: 'silent',
    // the digest has its own tests; elsewhere a channel's messages are its batches alone
    digestAt: 0,
    // held decisions have their own tests; elsewhere an answer is written when it is given
    undo: { seconds: 0, everywhere: false },
    auditLog: path.join(root, 'state', 'audit.jsonl'),
  };
}

/**
 * Retries and back-offs for tests: the same shapes as production's, in milliseconds instead of
 * seconds, so that no test waits out a real back-off. A run that keeps failing still waits
 * longer each time (up to 2 s), so a held Slack method stays held for a minute or more.
 */
export const QUICK_RETRIES: StartOptions = {
  queue: { retryBaseMs: 20, retryMostMs: 2000 },
  slackApiRetry: { retries: 4, factor: 2, minTimeout: 10, maxTimeout: 80 },
  slackWait: { firstRetryMs: 20, mostRetryMs: 200 },
  slackProbeEveryMs: 50,
  socketStaggerMs: 20,
};

/** Optional settings for {@link startRelayHarness}. */
export interface RelayHarnessOptions {
  /** The relay's logger, e.g. one writing to an array for log assertions; default: `TEST_LOG` level to stdout. */
  log?: Logger;
  /** Settings laid over the default configuration, e.g. `{ allowedUsers: { users: [ALICE], groups: [] } }`. */
  config?: Partial<Config>;
  /** Timing knobs passed to `runStart`, laid over {@link QUICK_RETRIES}. */
  start?: StartOptions;
  /**
   * Runs before the relay starts, with the stand-in and the temp folder (to add channels, say);
   * the settings it returns are laid over the configuration last.
   */
  prepare?: (slack: FakeSlack, root: string) => Promise<Partial<Config>> | Partial<Config>;
}

/**
 * The real relay (Bolt app, watcher, store) running in this process against the loopback
 * Slack stand-in, in Socket Mode or HTTP mode, watching a temp runs folder.
 */
export async function startRelayHarness(mode: Mode, options: RelayHarnessOptions = {}) {
  const slack = await startFakeSlack();
  const { dir: root, cleanup } = await makeTempDir('o7-e2e-');
  await mkdir(path.join(root, 'runs'), { recursive: true });
  const port = mode === 'http' ? await freePort() : 0;
  if (mode === 'http') slack.setRequestUrl(`http://127.0.0.1:${port}/slack/events`);
  const config: Config = {
    ...configFor(slack, root, mode, port),
    ...options.config,
    ...(await options.prepare?.(slack, root)),
  };
  const log = options.log ?? quietLog();
  // Edits go out at once unless a test paces them: most tests wait for each one.
  const start: StartOptions = { ...QUICK_RETRIES, updateEveryMs: 0, ...options.start };
  let relay: RunningRelay | undefined = await runStart(config, log, start);
  let stopping: Promise<void> | undefined;
  return {
    slack,
    root,
    config,
    runDir: (name: string) => path.join(root, 'runs', name),
    /**
     * Stops the relay (as a clean shutdown) and starts a new one on the same state, after
     * `whileStopped` (say, changing the run folders while no relay watches them).
     */
    async restart(whileStopped?: () => Promise<void>) {
      await relay?.stop();
      await whileStopped?.();
      relay = await runStart(config, log, start);
    },
    /** What `doctor` (or SIGUSR2) asks for: every batch Slack refused is tried again now. */
    retryRefused() {
      relay?.retryRefused();
    },
    /** Stops the relay and the stand-in and removes the folder; once, however often called. */
    stop() {
      stopping ??= (async () => {
        await relay?.stop();
        relay = undefined;
        await slack.close();
        await cleanup();
      })();
      return stopping;
    },
  };
}

export type Harness = Awaited<ReturnType<typeof startRelayHarness>>;

/**
 * Waits until `relays` relays in Socket Mode hold all their connections to the stand-in (each
 * opens its second one a stagger after the first is up); resolves with the count.
 */
export function allConnected(slack: FakeSlack, relays = 1): Promise<number> {
  const expected = SOCKET_CONNECTIONS * relays;
  return waitFor(
    () => slack.connectionCount === expected && expected,
    () => `${expected} Socket Mode connections (${relays} relay(s)), not ${slack.connectionCount}`,
  );
}

/** One interactive element of a message, with the ids a click needs. */
export interface FoundElement {
  blockId: string;
  actionId: string;
  type: string;
  element: Record<string, unknown>;
}

/** Every interactive element in a message's blocks. */
export function elementsOf(blocks: readonly Record<string, unknown>[]): FoundElement[] {
  const found: FoundElement[] = [];
  for (const block of blocks) {
    const blockId = String(block.block_id ?? '');
    const candidates = [
      ...((block.elements as Record<string, unknown>[] | undefined) ?? []),
      ...(block.accessory ? [block.accessory as Record<string, unknown>] : []),
    ];
    for (const element of candidates) {
      if (typeof element.action_id === 'string') {
        found.push({ blockId, actionId: element.action_id, type: String(element.type), element });
      }
    }
  }
  return found;
}

/** The element whose action id starts with `prefix` (e.g. `o7.choose:0`), or throws. */
export function findElement(
  blocks: readonly Record<string, unknown>[],
  prefix: string,
): FoundElement {
  const match = elementsOf(blocks).find(
    (e) => e.actionId === prefix || e.actionId.startsWith(`${prefix}:`),
  );
  if (!match) {
    const ids = elementsOf(blocks)
      .map((e) => e.actionId)
      .join(', ');
    throw new Error(`no element ${prefix} in message (have: ${ids})`);
  }
  return match;
}

/** All visible text of a message's blocks, joined, for "what the person sees" assertions. */
export function visibleText(message: {
  text: string;
  blocks: readonly Record<string, unknown>[];
}): string {
  const parts: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) for (const v of value) walk(v);
    else if (value && typeof value === 'object') {
      const obj = value as Record<string, unknown>;
      if (typeof obj.text === 'string') parts.push(obj.text);
      for (const [key, v] of Object.entries(obj))
        if (key !== 'text' || typeof v !== 'string') walk(v);
    }
  };
  walk(message.blocks);
  return parts.join('\n');
}

/** The channel's top-level messages. */
export function channelMessages(slack: FakeSlack): ObservedMessage[] {
  return slack.messages(CHANNEL);
}
