import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_NODE_FLAGS } from '../src/node-tuning.js';
import type { FakeSlack, WebApiCall } from '../test/support/fake-slack/index.js';

/** Milliseconds with sub-millisecond precision, on one clock shared with the stand-in. */
export const hrNow = (): number => performance.timeOrigin + performance.now();

export const CHANNEL = 'C0RELAY01';
export const USER = 'U0ALICE01';

/** The compiled relay entry point next to this compiled file (dist/bench → dist/src); the MCP figure starts it too. */
export const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/main.js');

/** p-th percentile (0–100) of a list of numbers, nearest-rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/** "12.3 ms" with one decimal. */
export const ms = (value: number): string => `${value.toFixed(1)} ms`;

/** A one-question yes/no batch: a single tap answers it. */
export function oneTapBatch(seq: number) {
  return { seq, questions: [{ id: 'go', type: 'yes-no', prompt: `Proceed with step ${seq}?` }] };
}

/** Writes a q-out file the way agents do (temp file, then rename); returns the time of the rename. */
export async function renameIntoPlace(
  runDir: string,
  seq: number,
  content: unknown,
): Promise<number> {
  const qa = path.join(runDir, 'qa');
  await mkdir(qa, { recursive: true });
  const name = `q-out-${String(seq).padStart(3, '0')}.json`;
  const temp = path.join(qa, `.${name}.tmp`);
  await writeFile(temp, JSON.stringify(content));
  const at = hrNow();
  await rename(temp, path.join(qa, name));
  return at;
}

/** Polls until `check` gives a value; fails loudly after `timeoutMs`. */
export async function until<T>(
  check: () => T | undefined | false,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Waits until the relay has a Socket Mode connection to the stand-in. */
export const socketConnected = (slack: FakeSlack, timeoutMs = 60_000) =>
  until(() => slack.connectionCount > 0 || undefined, 'socket connection', timeoutMs);

/**
 * The fields of `/proc/<pid>/stat` after the command name (Linux): field n of proc(5) is at
 * index n - 3, so utime is [11], stime [12], cutime [13] and cstime [14], in 1/100 s.
 */
export async function procStat(pid: number | 'self'): Promise<string[]> {
  return (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
}

/** Successful chat.postMessage calls so far. */
export function okPosts(slack: FakeSlack) {
  return slack.calls.filter(
    (c) => c.method === 'chat.postMessage' && (c.response as { ok?: boolean }).ok === true,
  );
}

/** The batch key a posted message belongs to, read from its block ids. */
export function keyOfBlocks(blocks: unknown): string | undefined {
  for (const block of (blocks as { block_id?: string }[] | undefined) ?? []) {
    const parts = block.block_id?.split('|');
    if (parts?.[0] === 'o7' && parts[1]) return parts[1];
  }
  return undefined;
}

/** Taps the one-tap (yes) button of a posted one-tap batch. */
export async function tapOneTap(slack: FakeSlack, post: WebApiCall): Promise<void> {
  const ts = String((post.response as { ts?: string }).ts);
  const blocks =
    (post.args.blocks as {
      block_id?: string;
      elements?: { action_id?: string; value?: string }[];
    }[]) ?? [];
  const yes = blocks
    .flatMap((b) => (b.elements ?? []).map((e) => ({ blockId: String(b.block_id), ...e })))
    .find((e) => e.action_id?.startsWith('o7.one-tap') || e.value === 'yes');
  if (!yes?.action_id) throw new Error(`bench: the post at ${ts} has no one-tap button`);
  await slack.clickButton({
    channel: CHANNEL,
    ts,
    blockId: yes.blockId,
    actionId: yes.action_id,
    user: USER,
  });
}

/** The relay as a real child process, started from the compiled sources. */
export interface RelayChild {
  child: ChildProcess;
  startedAt: number;
  stop(): Promise<void>;
  /** Resident set size in MB, from /proc. */
  rssMb(): Promise<number>;
  /** User + system CPU seconds used so far, from /proc. */
  cpuSeconds(): Promise<number>;
}

/**
 * The relay's node flags: those it runs with as a service, or RELAY_NODE_FLAGS instead when set
 * (`RELAY_NODE_FLAGS= npm run bench`: none, V8's defaults).
 */
const nodeFlags = (): readonly string[] =>
  process.env.RELAY_NODE_FLAGS === undefined
    ? SERVICE_NODE_FLAGS
    : process.env.RELAY_NODE_FLAGS.split(' ').filter(Boolean);

/**
 * Starts `o7-slack-relay start` from the compiled sources against the stand-in. Its log is
 * dropped; BENCH_RELAY_LOGS=<level> (e.g. info) prints it at that level, to see why a figure
 * stalls.
 */
export function startRelay(
  slack: FakeSlack,
  root: string,
  extraEnv: Record<string, string> = {},
): RelayChild {
  const startedAt = hrNow();
  const child = spawn(process.execPath, [...nodeFlags(), MAIN, 'start'], {
    cwd: root,
    stdio: ['ignore', process.env.BENCH_RELAY_LOGS ? 'inherit' : 'ignore', 'inherit'],
    env: {
      PATH: process.env.PATH ?? '',
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_APP_TOKEN: slack.appToken,
      SLACK_CHANNEL_ID: CHANNEL,
      SLACK_API_URL: slack.apiUrl,
      RELAY_WATCH: path.join(root, 'runs'),
      RELAY_STATE_DIR: path.join(root, 'state'),
      LOG_LEVEL: process.env.BENCH_RELAY_LOGS ?? 'warn',
      // RELAY_V8_DEFAULTS=1 npm run bench: the same figures with V8's default heap sizing
      ...(process.env.RELAY_V8_DEFAULTS
        ? { RELAY_V8_DEFAULTS: process.env.RELAY_V8_DEFAULTS }
        : {}),
      // RELAY_POLL=1 npm run bench: the same figures with the relay polling its folders
      ...(process.env.RELAY_POLL ? { RELAY_POLL: process.env.RELAY_POLL } : {}),
      ...extraEnv,
    },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stat = (name: string) => readFile(`/proc/${child.pid}/${name}`, 'utf8');
  return {
    child,
    startedAt,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    async rssMb() {
      const status = await stat('status');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
      return kb / 1024;
    },
    async cpuSeconds() {
      const fields = await procStat(child.pid ?? 0);
      const ticks = Number(fields[11]) + Number(fields[12]);
      return ticks / 100;
    },
  };
}
