// A shared-mode relay that boots before its Redis: it waits, as it waits for Slack, instead of
// exiting 2, which the systemd unit (RestartPreventExitStatus=2) would never have restarted.
// What waiting cannot fix (a wrong password, a taken RELAY_NODE) still exits 2:
// shared-mode-join.test.ts.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { adminClient } from '../support/redis-for-suite.js';
import { needsRedis, type RedisTestServer, startRedisServer } from '../support/redis-server.js';
import { CHANNEL } from '../support/relay-harness.js';
import { noStack, relayProcessPerTest, spawnRelayFor } from '../support/spawn-relay.js';
import { expectReachedAfter, expectWaitingFor } from '../support/start-up-waits.js';
import { sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

describe('shared mode: Redis not running when the relay starts', () => {
  let redis: RedisTestServer | undefined;
  const fx = relayProcessPerTest('o7-redis-at-start-', () => redis?.dispose());

  test(
    'the relay waits (one warning, the tries at debug), starts once a redis-server listens there, and says how long it waited',
    needsRedis,
    async () => {
      // a port a Redis will listen on, with nothing there yet
      redis = await startRedisServer();
      await redis.stop();
      fx.relay = spawnRelayFor(fx.slack, fx.root, {
        logLevel: 'debug',
        env: { RELAY_REDIS_URL: redis.url, RELAY_NODE: 'early-riser' },
      });
      const relay = fx.relay;
      const { warning } = await expectWaitingFor(relay, 'Redis', 1);
      assert.equal(warning?.redis, `127.0.0.1:${redis.port}`);
      assert.match(String(warning?.reason), /ECONNREFUSED/);
      assert.match(String(warning?.msg), /RELAY_REDIS_URL/);

      await redis.restart();
      await relay.waitForLog('relay ready');
      expectReachedAfter(relay, 'Redis', 1000);

      // shared mode works: the batch is posted, and its record is in that Redis
      await writeQuestionFile(path.join(fx.root, 'runs', 'run-1'), 1, sampleBatch(1));
      await waitFor(() => fx.slack.messages(CHANNEL)[0], 'the batch posted');
      const admin = await adminClient(redis.url);
      try {
        assert.ok((await admin.keys('o7relay:*')).length > 0, 'the relay keeps its records there');
      } finally {
        await admin.close();
      }
      noStack(relay.stderr());
    },
  );
});
