import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode, RelayError } from '../../src/errors.js';
import { connectRedis, RedisUnavailableError } from '../../src/redis/redis-connection.js';
import { captureLog } from '../support/log-capture.js';
import {
  adminClient,
  portNoRedisListensOn,
  redisForSuite,
  withRedisServer,
} from '../support/redis-for-suite.js';
import { needsRedis, startRedisServer } from '../support/redis-server.js';
import { waitFor } from '../support/wait.js';

/** A logger that keeps its lines. */
function keptLog() {
  const { log, records: lines, said } = captureLog('debug');
  return { log, lines, said };
}

/** The RelayError `work` rejects with. */
async function relayErrorOf(work: Promise<unknown>): Promise<RelayError> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof RelayError, String(error));
    return error;
  }
  assert.fail('expected it to fail');
}

describe('connectRedis', () => {
  const live = redisForSuite({ users: [{ name: 'relay', password: 'right' }] });

  it(
    'at start, no Redis at the address is "cannot be reached", naming RELAY_REDIS_URL',
    needsRedis,
    async () => {
      const url = `redis://relay:hunter2@127.0.0.1:${await portNoRedisListensOn()}`;
      const { log, lines } = keptLog();
      const error = await relayErrorOf(connectRedis({ url, log }));
      assert.equal(error.code, ErrorCode.RedisUnreachable);
      assert.match(
        error.message,
        /^Redis at 127\.0\.0\.1:\d+ \(RELAY_REDIS_URL=redis:\/\/relay:\*\*\*@/,
      );
      assert.match(error.message, /cannot be reached \(connect ECONNREFUSED/);
      assert.match(error.message, /fix the host and port in RELAY_REDIS_URL/);
      assert.doesNotMatch(error.message + JSON.stringify(lines), /hunter2/);
    },
  );

  it(
    'at start, a wrong password is "refused the credentials", apart from unreachable',
    needsRedis,
    async () => {
      const url = `redis://relay:hunter2@127.0.0.1:${live().port}`;
      const error = await relayErrorOf(connectRedis({ url, log: keptLog().log }));
      assert.equal(error.code, ErrorCode.RedisRefused);
      assert.match(error.message, /refused the relay's credentials \(WRONGPASS/);
      assert.match(error.message, /Fix the user name and password in RELAY_REDIS_URL/);
      assert.doesNotMatch(error.message, /hunter2/);
      const right = await connectRedis({
        url: `redis://relay:right@127.0.0.1:${live().port}`,
        log: keptLog().log,
      });
      assert.equal(await right.call('ping', (c) => c.ping()), 'PONG');
      await right.close();
    },
  );

  it(
    'at start, a TLS server whose certificate is not trusted is told as a TLS problem',
    needsRedis,
    async () => {
      await withRedisServer({ tls: true }, async (tls) => {
        const error = await relayErrorOf(connectRedis({ url: tls.url, log: keptLog().log }));
        assert.equal(error.code, ErrorCode.RedisUnreachable);
        assert.match(
          error.message,
          /^The TLS connection to Redis at 127\.0\.0\.1:\d+ \(RELAY_REDIS_URL=rediss:\/\/127\.0\.0\.1:\d+\) failed \((SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT)/,
        );
        assert.match(error.message, /NODE_EXTRA_CA_CERTS/);
      });
    },
  );

  it(
    'while running, an outage fails commands at once, is logged once, and ends by itself',
    needsRedis,
    async () => {
      const server = await startRedisServer({ aof: true });
      const { log, said } = keptLog();
      const connection = await connectRedis({ url: server.url, log });
      let reconnects = 0;
      connection.onReconnect(() => {
        reconnects += 1;
      });
      try {
        await connection.call('writing', (c) => c.set('kept', 'yes'));
        await server.stop();
        await waitFor(() => !connection.ready, 'the connection to notice');
        // refused at once: the reason is the lost connection, not a deadline waited out
        for (let i = 0; i < 5; i += 1) {
          await assert.rejects(
            connection.call('saving batch k.1', (c) => c.set('k', String(i))),
            (error: unknown) =>
              error instanceof RedisUnavailableError &&
              error.code === ErrorCode.RedisUnavailable &&
              /^saving batch k\.1: Redis at 127\.0\.0\.1:\d+ is not available right now \(.+\); try again in a moment$/.test(
                error.message,
              ) &&
              !/no answer within/.test(error.message),
          );
        }
        // several reconnect attempts fail while it is down; none of them is logged again
        await waitFor(() => said(/Redis connection lost/).length === 1, 'the loss logged');
        await new Promise((resolve) => setTimeout(resolve, 1500));
        assert.equal(said(/Redis connection lost/).length, 1);
        await server.restart();
        await waitFor(() => connection.ready, 'the connection to come back');
        assert.equal(await connection.call('reading', (c) => c.get('kept')), 'yes');
        await waitFor(() => said(/Redis connection is back/).length === 1, 'the return logged');
        assert.equal(said(/Redis connection lost/).length, 1);
        assert.equal(reconnects, 1);
        assert.equal(typeof said(/Redis connection is back/)[0]?.downMs, 'number');
      } finally {
        await connection.close();
        await server.dispose();
      }
    },
  );

  it(
    'a command Redis does not answer within the deadline is "try again", not a hang',
    needsRedis,
    async () => {
      const connection = await connectRedis({
        url: live().url,
        log: keptLog().log,
        deadlineMs: 300,
      });
      const admin = await adminClient(`redis://relay:right@127.0.0.1:${live().port}`);
      try {
        await admin.sendCommand(['CLIENT', 'PAUSE', '10000', 'WRITE']);
        // the 300 ms deadline ended it (a hang would have lasted the 10 s pause)
        await assert.rejects(
          connection.call('saving batch k.2', (c) => c.set('paused', '1')),
          /saving batch k\.2: Redis at .* is not available right now \(no answer within 300 ms\)/,
        );
        await admin.sendCommand(['CLIENT', 'UNPAUSE']);
        assert.equal(await connection.call('reading', (c) => c.get('paused')), '1');
      } finally {
        await admin.close();
        await connection.close();
      }
    },
  );
});
