import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import { collectOutput } from './child-output.js';
import { type FakeSlack, startFakeSlack } from './fake-slack/index.js';
import { NODE_LOADER_ARGS, projectModule } from './project-paths.js';
import { CHANNEL } from './relay-harness.js';
import { makeTempDir } from './temp-dir.js';
import { waitFor } from './wait.js';

const main = projectModule('src/main');

/** A relay (or other CLI command) running as a real child process; its JSON log lines are kept. */
export interface RelayProcess {
  child: ChildProcess;
  logs: Record<string, unknown>[];
  stdout: () => string;
  stderr: () => string;
  /** Waits for a log line whose `msg` equals `msg` (and that `match` accepts). */
  waitForLog(
    msg: string,
    match?: (line: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Runs `o7-slack-relay <args>` in a child process (the same build of the code as the test), with exactly
 * the environment given (plus PATH) and `cwd` (so no developer .env is picked up). With
 * `stdin`, that text is piped to the process's standard input, which is then closed.
 */
export function spawnRelay(
  args: string[],
  opts: {
    env: Record<string, string>;
    cwd: string;
    stdin?: string;
    /** run as this user and group (the caller must be root), e.g. to meet real EACCES */
    user?: { uid: number; gid: number };
    /** node flags before the program, e.g. SERVICE_NODE_FLAGS */
    nodeFlags?: readonly string[];
    /** the program instead of main.js: bin/o7-slack-relay.js, which runs `hook` from its bundle */
    program?: string;
  },
): RelayProcess {
  const nodeArgs = [...(opts.nodeFlags ?? []), ...NODE_LOADER_ARGS];
  const child = spawn(process.execPath, [...nodeArgs, opts.program ?? main, ...args], {
    cwd: opts.cwd,
    env: { PATH: process.env.PATH ?? '', ...opts.env },
    stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    ...(opts.user ?? {}),
  });
  // A child that ends before reading its input (a refused argument, say) closes the pipe: the
  // write then fails with EPIPE, and the child's exit code and stderr, not that, say why.
  child.stdin?.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  if (opts.stdin !== undefined) child.stdin?.end(opts.stdin);
  const { stdout, stderr } = child;
  if (!stdout || !stderr) throw new Error('spawnRelay: stdout and stderr are pipes');
  const output = collectOutput({ stdout, stderr });
  const logs: Record<string, unknown>[] = [];
  let partial = '';
  stdout.on('data', (chunk: Buffer) => {
    partial += chunk.toString();
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    logs,
    stdout: output.out,
    stderr: output.err,
    waitForLog: (msg, match) =>
      waitFor(
        () => logs.find((l) => l.msg === msg && (match?.(l) ?? true)),
        () => `log "${msg}" (stderr: ${output.err().slice(-500)})`,
      ),
    exited,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/**
 * `o7-slack-relay start` as a real process against the stand-in, watching `<root>/runs` with
 * its state in `<root>/state`: in Socket Mode, or with `httpPort` in HTTP mode on that port
 * (the stand-in then posts interactions there); `env` adds or overrides variables, `user`
 * runs it as another user.
 */
export function spawnRelayFor(
  slack: FakeSlack,
  root: string,
  options: {
    logLevel?: string;
    httpPort?: number;
    env?: Record<string, string>;
    user?: { uid: number; gid: number };
    nodeFlags?: readonly string[];
  } = {},
): RelayProcess {
  const { logLevel = 'debug', httpPort, env = {} } = options;
  if (httpPort !== undefined) slack.setRequestUrl(`http://127.0.0.1:${httpPort}/slack/events`);
  const transport: Record<string, string> =
    httpPort === undefined
      ? { SLACK_APP_TOKEN: slack.appToken }
      : { SLACK_SIGNING_SECRET: slack.signingSecret, PORT: String(httpPort) };
  return spawnRelay(['start'], {
    cwd: root,
    env: {
      SLACK_BOT_TOKEN: slack.botToken,
      ...transport,
      SLACK_CHANNEL_ID: CHANNEL,
      SLACK_API_URL: slack.apiUrl,
      RELAY_WATCH: path.join(root, 'runs'),
      RELAY_STATE_DIR: path.join(root, 'state'),
      LOG_LEVEL: logLevel,
      ...env,
    },
    ...(options.user ? { user: options.user } : {}),
    ...(options.nodeFlags ? { nodeFlags: options.nodeFlags } : {}),
  });
}

/** What {@link relayProcessPerTest} gives each test: a stand-in, a temp root, and the relay. */
export interface RelayProcessFixture {
  slack: FakeSlack;
  /** a fresh temp folder with `runs/` made in it */
  root: string;
  /** the relay process of the test, once started; killed after the test */
  relay?: RelayProcess;
}

/**
 * For each test of the enclosing `describe`, a fresh stand-in and temp root (`prefix` names
 * the folder); after it, `beforeCleanup` runs (say, killing an `ask` process), the relay is
 * killed, the stand-in closed and the folder removed. Read the fields inside tests only.
 */
export function relayProcessPerTest(
  prefix: string,
  beforeCleanup: () => unknown = () => undefined,
): RelayProcessFixture {
  const fixture = {} as RelayProcessFixture;
  let cleanup: () => Promise<void> = async () => {};
  beforeEach(async () => {
    fixture.slack = await startFakeSlack();
    const temp = await makeTempDir(prefix);
    fixture.root = temp.dir;
    cleanup = temp.cleanup;
    await mkdir(path.join(fixture.root, 'runs'), { recursive: true });
  });
  afterEach(async () => {
    await beforeCleanup();
    await fixture.relay?.kill();
    fixture.relay = undefined;
    await fixture.slack.close();
    await cleanup();
  });
  return fixture;
}

/** Starts the fixture's relay and waits for it to exit: its exit code and stderr. */
export async function startUntilExit(fx: RelayProcessFixture, env: Record<string, string>) {
  fx.relay = spawnRelayFor(fx.slack, fx.root, { logLevel: 'info', env });
  const { code } = await fx.relay.exited;
  return { code, err: fx.relay.stderr() };
}

/** What the relay printed has no stack trace (its errors say what to do instead). */
export function noStack(text: string): void {
  assert.doesNotMatch(text, /\n\s+at /, `no stack trace in ${text}`);
}
