import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  plainTextPassword,
  redactRedisUrl,
  redisAddress,
  redisUrlProblem,
} from '../../src/redis/redis-url.js';

describe('Redis URLs', () => {
  test('accepts redis:// and rediss:// with or without user, password, port and database', () => {
    for (const url of [
      'redis://localhost',
      'redis://127.0.0.1:6379/0',
      'rediss://user:p%40ss@redis.example.com:6380',
      'redis://:only-password@h',
      'redis://[::1]:6379',
    ]) {
      assert.equal(redisUrlProblem(url), undefined, url);
    }
  });

  test('redacts the password and only the password', () => {
    assert.equal(redactRedisUrl('rediss://relay:s3cret@h:6380/1'), 'rediss://relay:***@h:6380/1');
    assert.equal(redactRedisUrl('redis://h:6379'), 'redis://h:6379');
    assert.equal(redactRedisUrl('s3cret'), '(not a URL)');
  });

  test('gives host:port, 6379 when the URL has none', () => {
    assert.equal(redisAddress('redis://u:p@cache.lan'), 'cache.lan:6379');
    assert.equal(redisAddress('rediss://cache.lan:7000'), 'cache.lan:7000');
  });

  test('a password over plain redis:// off this machine is worth a warning', () => {
    assert.equal(plainTextPassword('redis://u:p@cache.lan'), true);
    assert.equal(plainTextPassword('rediss://u:p@cache.lan'), false);
    assert.equal(plainTextPassword('redis://u:p@127.0.0.1'), false);
    assert.equal(plainTextPassword('redis://cache.lan'), false);
  });
});
