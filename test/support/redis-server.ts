import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import path from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { findOnPath, needs, program } from './preconditions.js';
import { repoFile } from './project-paths.js';
import { makeTempDir } from './temp-dir.js';

/** How to get `redis-server` where it is missing; said wherever Redis tests are not run. */
export const INSTALL_REDIS_HINT =
  'install it (Debian/Ubuntu: apt-get install redis-server) and run the tests again';

/** An ACL user the server is started with, allowed every command and key. */
export interface RedisTestUser {
  name: string;
  password: string;
}

/** What `startRedisServer` can turn on. */
export interface RedisServerOptions {
  /** append-only file on (fsync at every write), so `restart` keeps every write */
  aof?: boolean;
  /** password of the `default` user (`requirepass`) */
  password?: string;
  /** more ACL users */
  users?: RedisTestUser[];
  /** TLS only (no plain port), with the certificate in `TEST_TLS_CA`; `url` is rediss:// */
  tls?: boolean;
}

/** The TLS test server's self-signed certificate: trust it (e.g. NODE_EXTRA_CA_CERTS) to connect. */
export const TEST_TLS_CA = repoFile('test/fixtures/tls/server-cert.pem');
const TEST_TLS_KEY = repoFile('test/fixtures/tls/server-key.pem');

/** A real `redis-server` on a loopback port, in a temp folder of its own. */
export interface RedisTestServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` (`rediss://` with TLS), without credentials */
  readonly url: string;
  /** the server's folder: its AOF or RDB files */
  readonly dir: string;
  /** whether the process is up */
  readonly running: boolean;
  /** Stops the server (SIGTERM: it flushes its AOF); its folder and port stay for `restart`. */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder (stopping it first if it runs). */
  restart(): Promise<void>;
  /** Stops it and removes its folder. */
  dispose(): Promise<void>;
}

/**
 * Where `redis-server` is on PATH, or undefined. Looked up synchronously so that a test file
 * can decide at load time whether its Redis tests run.
 */
export const findRedisServer = (): string | undefined => findOnPath('redis-server');

/**
 * The options of a test that needs Redis: `it(name, needsRedis, fn)`. Put on each test rather
 * than on its suite, so the runner's closing count of skipped tests includes them. Without
 * redis-server it is not run, saying why; with CI=true it fails at once (see `needs`).
 */
export const needsRedis = needs(program('redis-server', INSTALL_REDIS_HINT));

const STARTS_BEFORE_GIVING_UP = 5;
const ANSWER_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 20_000;

// Servers still running when the test process exits are killed with it.
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/**
 * Starts a real `redis-server` bound to 127.0.0.1 on a free port, with its data in a new temp
 * folder, and resolves once it answers PING. A port taken by someone else between choosing it
 * and binding it is met by trying another.
 */
export async function startRedisServer(opts: RedisServerOptions = {}): Promise<RedisTestServer> {
  const binary = findRedisServer();
  if (!binary) {
    throw new Error(`redis-server is not on PATH, and these tests need it: ${INSTALL_REDIS_HINT}`);
  }
  const { dir, cleanup } = await makeTempDir('o7-redis-');
  let child: ChildProcess | undefined;
  let port = 0;
  let lastProblem = '';
  for (let attempt = 1; attempt <= STARTS_BEFORE_GIVING_UP && !child; attempt += 1) {
    port = await freeLoopbackPort();
    const started = await launch(binary, [await writeConfig(port, dir, opts)], port, opts);
    if (started.ok) child = started.child;
    else lastProblem = started.problem;
  }
  if (!child) {
    await cleanup();
    throw new Error(`redis-server did not start: ${lastProblem}`);
  }

  let current: ChildProcess | undefined = child;
  const stop = async () => {
    const running = current;
    current = undefined;
    if (running) await terminate(running);
  };
  return {
    port,
    url: `${opts.tls ? 'rediss' : 'redis'}://127.0.0.1:${port}`,
    dir,
    get running() {
      return current !== undefined;
    },
    stop,
    async restart() {
      await stop();
      // the port was ours a moment ago; if another process took it meanwhile, say so plainly
      const started = await launch(binary, [path.join(dir, 'redis.conf')], port, opts);
      if (!started.ok) {
        throw new Error(`redis-server did not start again on port ${port}: ${started.problem}`);
      }
      current = started.child;
    },
    async dispose() {
      await stop();
      await cleanup();
    },
  };
}

/** The server's configuration file, written into its folder so each restart reads the same. */
async function writeConfig(port: number, dir: string, opts: RedisServerOptions): Promise<string> {
  const lines = [
    ...(opts.tls
      ? [
          'port 0',
          `tls-port ${port}`,
          `tls-cert-file "${TEST_TLS_CA}"`,
          `tls-key-file "${TEST_TLS_KEY}"`,
          'tls-auth-clients no',
        ]
      : [`port ${port}`]),
    'bind 127.0.0.1',
    // bound to loopback already; protected mode would only refuse a passwordless test server
    'protected-mode no',
    `dir "${dir}"`,
    'daemonize no',
    'save ""',
    `appendonly ${opts.aof ? 'yes' : 'no'}`,
    ...(opts.aof ? ['appendfsync always'] : []),
    ...(opts.password ? [`requirepass "${opts.password}"`] : []),
    ...(opts.users ?? []).map((user) => `user ${user.name} on >${user.password} ~* &* +@all`),
  ];
  const file = path.join(dir, 'redis.conf');
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

type Launched = { ok: true; child: ChildProcess } | { ok: false; problem: string };

async function launch(
  binary: string,
  args: string[],
  port: number,
  opts: RedisServerOptions,
): Promise<Launched> {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  let started = false;
  child.once('exit', (code, signal) => {
    exited = true;
    // stopped by us: `terminate` took it out of `live` first; anything else is worth telling
    if (live.delete(child) && started) {
      process.stderr.write(
        `redis-server on port ${port} exited by itself (${signal ?? `code ${code}`}); its last output:\n${output}\n`,
      );
    }
  });
  const spawnFailed = new Promise<string>((resolve) =>
    child.once('error', (error) => resolve(String(error))),
  );
  live.add(child);
  const deadline = Date.now() + ANSWER_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const failure = await Promise.race([spawnFailed, sleep(50).then(() => undefined)]);
    if (failure) return { ok: false, problem: failure };
    if (exited) return { ok: false, problem: `it exited at once; its output:\n${output}` };
    if (await answersPing(port, opts)) {
      started = true;
      return { ok: true, child };
    }
  }
  await terminate(child);
  return {
    ok: false,
    problem: `it did not answer PING within ${ANSWER_TIMEOUT_MS} ms; its output:\n${output}`,
  };
}

/** Whether the server on `port` answers PING (after AUTH when it has a password). */
function answersPing(port: number, opts: RedisServerOptions): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = opts.tls
      ? tlsConnect({ host: '127.0.0.1', port, ca: readFileSync(TEST_TLS_CA) })
      : createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once(opts.tls ? 'secureConnect' : 'connect', () => {
      const auth = opts.password ? `AUTH ${opts.password}\r\n` : '';
      socket.write(`${auth}PING\r\n`);
    });
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      // while it loads its AOF it answers -LOADING; only PONG means it serves commands
      if (reply.includes('+PONG')) done(true);
      else if (reply.includes('-')) done(false);
    });
  });
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  live.delete(child);
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
  live.delete(child);
}

/** A port nothing listens on right now (the OS picks it). */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
