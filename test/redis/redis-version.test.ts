import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CONFIG_ERROR_CODES, ErrorCode, RelayError } from '../../src/errors.js';
import type { RedisConnection } from '../../src/redis/redis-connection.js';
import { requireRedisVersion, versionInInfo } from '../../src/redis/redis-version.js';

/** A connection whose server answers INFO with `info` (all the start's check asks). */
function answering(info: string): RedisConnection {
  return {
    address: '10.0.0.5:6379',
    call: async (_what: string, command: (client: never) => Promise<unknown>) =>
      command({ info: async () => info } as never),
  } as unknown as RedisConnection;
}

describe('the Redis version shared mode needs', () => {
  test('read from INFO; "?" when INFO does not say', () => {
    assert.equal(
      versionInInfo('# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone'),
      '7.0.15',
    );
    assert.equal(versionInInfo('# Server\r\n'), '?');
  });

  test('6.2 and later start; older is refused at start with what to change (exit 2)', async () => {
    await requireRedisVersion(answering('redis_version:6.2.0\r\n'));
    await requireRedisVersion(answering('redis_version:7.0.15\r\n'));
    await assert.rejects(requireRedisVersion(answering('redis_version:6.0.16\r\n')), (error) => {
      assert.ok(error instanceof RelayError);
      assert.equal(error.code, ErrorCode.RedisTooOld);
      assert.ok(CONFIG_ERROR_CODES.includes(error.code));
      assert.match(error.message, /10\.0\.0\.5:6379 \(RELAY_REDIS_URL\) is version 6\.0\.16/);
      assert.match(error.message, /6\.2 or later/);
      return true;
    });
  });
});
