import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { needsRedis, type RedisTestServer, startRedisServer } from '../support/redis-server.js';
import { type RelayProcess, spawnRelayFor } from '../support/spawn-relay.js';
import { makeTempDir } from '../support/temp-dir.js';

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

  // Redis not yet running at start is waited for: shared-mode-redis-at-start.test.ts
  test('Redis refusing the password: exit 2, saying so, without the password', async () => {
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
    assert.ok(
      !refused.logs.some((l) => String(l.msg).startsWith('Redis cannot be reached')),
      'a refused password is not waited out',
    );
  });

  test('a second live relay with the same RELAY_NODE is refused, naming the variable', async () => {
    const redis = await startRedisServer();
    servers.push(redis);
    const first = await start('one', { RELAY_REDIS_URL: redis.url, RELAY_NODE: 'twin' });
    await first.waitForLog('relay ready');
    const second = await start('two', { RELAY_REDIS_URL: redis.url, RELAY_NODE: 'twin' });
    const { code } = await second.exited;
    // a configuration to change, which a restart (systemd's RestartPreventExitStatus=2) cannot fix
    assert.equal(code, 2);
    assert.match(second.stderr(), /RELAY_NODE=twin/);
    assert.equal(first.child.exitCode, null, 'the first relay keeps running');
  });
});
