import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it, test } from 'node:test';
import pino from 'pino';
import { runDoctor } from '../../src/cli/doctor-command.js';
import { checkRedis, type RedisDoctorDeps } from '../../src/cli/doctor-redis.js';
import type { SharedConfig } from '../../src/config/config-schema.js';
import { acquireNodeLease, type NodeLease } from '../../src/redis/node-lease.js';
import { connectRedis } from '../../src/redis/redis-connection.js';
import { MIN_REDIS_VERSION, versionAtLeast } from '../../src/redis/redis-version.js';
import { processIsAlive } from '../../src/store/state-dir-lock.js';
import { startFakeSlack } from '../support/fake-slack/index.js';
import { adminClient, portNoRedisListensOn, redisForSuite } from '../support/redis-for-suite.js';
import { needsRedis } from '../support/redis-server.js';
import { freshNamespace } from '../support/redis-store.js';
import { configFor } from '../support/relay-harness.js';
import { makeTempDir } from '../support/temp-dir.js';

const log = pino({ level: 'silent' });

/** Runs the Redis checks and returns doctor's lines for them. */
async function check(shared: SharedConfig, deps: Partial<RedisDoctorDeps> = {}) {
  const lines: string[] = [];
  await checkRedis(
    shared,
    '/state',
    {
      pass: (text) => lines.push(`ok    ${text}`),
      fail: (text, fix) => lines.push(`FAIL  ${text}\n      fix: ${fix}`),
      note: (text, fix) => lines.push(`note  ${text}${fix ? `\n      fix: ${fix}` : ''}`),
    },
    {
      host: 'this-box',
      isAlive: processIsAlive,
      runningRelay: async () => undefined,
      log,
      ...deps,
    },
  );
  return lines.join('\n');
}

test('versionAtLeast: 6.2 and later pass', () => {
  assert.equal(versionAtLeast('7.0.15', MIN_REDIS_VERSION), true);
  assert.equal(versionAtLeast('6.2.0', MIN_REDIS_VERSION), true);
  assert.equal(versionAtLeast('6.0.16', MIN_REDIS_VERSION), false);
  assert.equal(versionAtLeast('5.9', MIN_REDIS_VERSION), false);
  assert.equal(versionAtLeast('?', MIN_REDIS_VERSION), false);
});

type HeldLease = { node: string; host: string; isAlive: (pid: number) => boolean; pid?: number };

describe('doctor in shared mode', () => {
  const redisServer = redisForSuite({ users: [{ name: 'relay', password: 'right' }] });
  const url = (password = 'right') => `redis://relay:${password}@127.0.0.1:${redisServer().port}`;

  /**
   * Relays' leases on their nodes in `namespace`, as doctor finds them held. `release` lets them
   * go; `crash` drops the connection and leaves the leases in Redis, as a killed relay does.
   */
  async function holdLeases(namespace: string, ...held: HeldLease[]) {
    const connection = await connectRedis({ url: url(), log });
    const leases: NodeLease[] = [];
    for (const lease of held)
      leases.push(await acquireNodeLease({ connection, log, namespace, ...lease }));
    return {
      release: async () => {
        await Promise.all(leases.map((lease) => lease.release()));
        await connection.close();
      },
      crash: () => connection.close(),
    };
  }

  it(
    'passes a reachable Redis with a free RELAY_NODE, with notes on settings that lose data',
    needsRedis,
    async () => {
      const namespace = freshNamespace();
      const out = await check({ redisUrl: url(), node: 'ci-1' }, { namespace });
      assert.match(
        out,
        /^ok {4}Redis \d+\.\d+\.\d+ at 127\.0\.0\.1:\d+ answers and accepts RELAY_REDIS_URL's credentials$/m,
      );
      assert.match(out, /^ok {4}RELAY_NODE=ci-1 is free: no running relay holds it$/m);
      assert.match(out, /^note {2}Redis keeps no append-only file.*\n {6}fix: set appendonly yes/m);
      assert.doesNotMatch(out, /FAIL|maxmemory/);
    },
  );

  it(
    'tells refused credentials from an unreachable Redis, each with its fix',
    needsRedis,
    async () => {
      const refused = await check({ redisUrl: url('hunter2'), node: 'ci-1' });
      assert.match(
        refused,
        /^FAIL {2}Redis at 127\.0\.0\.1:\d+ \(RELAY_REDIS_URL=redis:\/\/relay:\*\*\*@127\.0\.0\.1:\d+\) refused the relay's credentials \(WRONGPASS.*\); nothing else about Redis could be checked\n {6}fix: Fix the user name and password in RELAY_REDIS_URL/m,
      );
      assert.doesNotMatch(refused, /hunter2/);
      const gone = `redis://127.0.0.1:${await portNoRedisListensOn()}`;
      const unreachable = await check({ redisUrl: gone, node: 'ci-1' });
      assert.match(unreachable, /^FAIL {2}Redis at .* cannot be reached \(connect ECONNREFUSED/m);
      assert.match(unreachable, /fix: Check that Redis is running there/);
    },
  );

  it(
    'RELAY_NODE held by a relay on another machine fails; by the relay running here passes',
    needsRedis,
    async () => {
      const namespace = freshNamespace();
      const held = await holdLeases(
        namespace,
        { node: 'ci-1', host: 'other-box', isAlive: () => true },
        { node: 'laptop', host: 'this-box', isAlive: processIsAlive },
      );
      try {
        const taken = await check({ redisUrl: url(), node: 'ci-1' }, { namespace });
        assert.match(
          taken,
          /^FAIL {2}RELAY_NODE=ci-1 is held by a relay on host other-box \(pid \d+, since .+\), renewed within the last 15 s\n {6}fix: give this machine another name with RELAY_NODE/m,
        );
        const here = await check(
          { redisUrl: url(), node: 'laptop' },
          { namespace, runningRelay: async () => process.pid },
        );
        assert.match(
          here,
          new RegExp(
            `^ok {4}RELAY_NODE=laptop is held by the relay running here \\(pid ${process.pid}\\)$`,
            'm',
          ),
        );
        const stranger = await check({ redisUrl: url(), node: 'laptop' }, { namespace });
        assert.match(
          stranger,
          /^FAIL {2}RELAY_NODE=laptop is held by another relay on this machine/m,
        );
      } finally {
        await held.release();
      }
    },
  );

  it(
    'a crashed relay’s lease on this machine is no failure: the relay takes it over',
    needsRedis,
    async () => {
      const namespace = freshNamespace();
      const gone = spawnSync(process.execPath, ['-e', '']).pid;
      const held = await holdLeases(namespace, {
        node: 'box',
        host: 'this-box',
        pid: gone,
        isAlive: processIsAlive,
      });
      await held.crash();
      const out = await check({ redisUrl: url(), node: 'box' }, { namespace });
      assert.match(
        out,
        new RegExp(
          `^ok {4}RELAY_NODE=box is still held by a relay on this machine that is gone \\(pid ${gone}\\)`,
          'm',
        ),
      );
    },
  );

  it('notes a maxmemory-policy that evicts', needsRedis, async () => {
    const admin = await adminClient(url());
    try {
      await admin.configSet('maxmemory-policy', 'allkeys-lru');
      const out = await check({ redisUrl: url(), node: 'n' }, { namespace: freshNamespace() });
      assert.match(
        out,
        /^note {2}Redis's maxmemory-policy is allkeys-lru: when full it may drop batch records\n {6}fix: set maxmemory-policy noeviction$/m,
      );
    } finally {
      await admin.configSet('maxmemory-policy', 'noeviction');
      await admin.close();
    }
  });

  it('runs as part of doctor, even when Slack cannot be checked', needsRedis, async () => {
    const slack = await startFakeSlack();
    const temp = await makeTempDir('o7-doctor-redis-');
    try {
      const config = {
        ...configFor(slack, temp.dir, 'socket'),
        shared: { redisUrl: url('hunter2'), node: 'ci-1' },
      };
      const lines: string[] = [];
      const deps = {
        readRecords: async () => [],
        retryRefused: async () => undefined,
        redis: {
          host: 'this-box',
          isAlive: processIsAlive,
          runningRelay: async () => undefined,
          log,
        },
      };
      const code = await runDoctor(config, { out: (l) => lines.push(l) }, deps);
      assert.equal(code, 1);
      assert.match(lines.join('\n'), /^ok {4}SLACK_BOT_TOKEN works/m);
      assert.match(lines.join('\n'), /^FAIL {2}Redis at .* refused the relay's credentials/m);

      await slack.close();
      const down: string[] = [];
      await runDoctor(config, { out: (l) => down.push(l) }, deps);
      assert.match(down.join('\n'), /^FAIL {2}Slack cannot be reached/m);
      assert.match(down.join('\n'), /^FAIL {2}Redis at .* refused the relay's credentials/m);
      assert.match(down.join('\n'), /2 checks failed\.$/);
    } finally {
      await slack.close().catch(() => undefined);
      await temp.cleanup();
    }
  });
});
