import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { z } from 'zod';
import { REPO } from '../support/project-paths.js';
import { readDockerfile } from './read-dockerfile.js';

const service = z.object({
  build: z.string().optional(),
  image: z.string(),
  restart: z.string(),
  environment: z.record(z.string(), z.string()).optional(),
  volumes: z.array(z.string()),
  command: z.array(z.string()).optional(),
  stop_grace_period: z.string().optional(),
});
const composeFile = z.object({
  services: z.object({ relay: service, redis: service }),
  volumes: z.record(z.string(), z.null()),
});

/** A short-syntax volume `source:target`, with `${VAR:-default}` sources left as written. */
function mountOf(volume: string): { source: string; target: string } {
  const at = volume.lastIndexOf(':');
  return { source: volume.slice(0, at), target: volume.slice(at + 1) };
}

// No Docker engine or Compose here: the file is read as YAML and checked against what the
// relay and the Dockerfile expect.
describe('compose.yml', () => {
  const compose = composeFile.parse(parse(readFileSync(path.join(REPO, 'compose.yml'), 'utf8')));
  const { relay, redis } = compose.services;
  const relayMounts = relay.volumes.map(mountOf);

  test('builds the relay from this folder and restarts both services unless stopped', () => {
    assert.equal(relay.build, '.');
    assert.equal(relay.restart, 'unless-stopped');
    assert.equal(redis.restart, 'unless-stopped');
    const grace = Number(/^(\d+)s$/.exec(relay.stop_grace_period ?? '')?.[1]);
    assert.ok(grace > 5, 'longer than the 5 s the relay waits for work under way');
  });

  test('keeps the state folder on a named volume, where the image made it writable', () => {
    const stateDir = relay.environment?.RELAY_STATE_DIR;
    const runtime = readDockerfile().stages.at(-1);
    assert.equal(stateDir, runtime?.env.RELAY_STATE_DIR);
    const state = relayMounts.find((m) => m.target === stateDir);
    assert.ok(state, 'a volume is mounted at RELAY_STATE_DIR');
    assert.ok(state.source in compose.volumes, `${state.source} is a named volume`);
  });

  test('mounts the runs folder from the host where RELAY_WATCH points', () => {
    const watch = relay.environment?.RELAY_WATCH;
    const runs = relayMounts.find((m) => m.target === watch);
    assert.ok(runs, 'a volume is mounted at RELAY_WATCH');
    assert.match(runs.source, /^\$\{HOST_RUNS_DIR:-[^}]+\}$/);
  });

  test('runs a Redis with streams and consumer groups (6.2 or later) that keeps its data', () => {
    const major = Number(/^redis:(\d+)/.exec(redis.image)?.[1]);
    assert.ok(major >= 7, redis.image);
    assert.deepEqual(redis.command, ['redis-server', '--appendonly', 'yes']);
    const data = redis.volumes.map(mountOf).find((m) => m.target === '/data');
    assert.ok(data && data.source in compose.volumes);
  });
});
