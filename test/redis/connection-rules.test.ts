import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type LinkState, nextLinkState } from '../../src/redis/outage-log.js';
import {
  RECONNECT_FIRST_MS,
  RECONNECT_MAX_MS,
  reconnectDelay,
} from '../../src/redis/reconnect-delay.js';
import { classifyRedisFailure, startFailureMessage } from '../../src/redis/redis-failure.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('the outage log', () => {
  test('an outage is news when it starts and when it ends, never in between', () => {
    let state: LinkState = { up: true };
    const news: unknown[] = [];
    const step = (event: Parameters<typeof nextLinkState>[1], at: number) => {
      const next = nextLinkState(state, event, at);
      state = next.state;
      if (next.news) news.push(next.news);
    };
    step({ kind: 'ready' }, 0);
    step({ kind: 'error', reason: 'Socket closed unexpectedly' }, 1000);
    for (let i = 0; i < 20; i += 1) step({ kind: 'error', reason: 'ECONNREFUSED' }, 1000 + i);
    step({ kind: 'ready' }, 4500);
    step({ kind: 'ready' }, 4600);
    step({ kind: 'error', reason: 'ECONNRESET' }, 9000);
    assert.deepEqual(news, [
      { kind: 'lost', reason: 'Socket closed unexpectedly' },
      { kind: 'back', downMs: 3500, reason: 'Socket closed unexpectedly' },
      { kind: 'lost', reason: 'ECONNRESET' },
    ]);
  });
});

describe('reconnectDelay', () => {
  test('doubles from the first wait up to the ceiling, spread over the upper half', () => {
    assert.equal(reconnectDelay(0, 1), RECONNECT_FIRST_MS);
    assert.equal(reconnectDelay(0, 0), RECONNECT_FIRST_MS / 2);
    assert.equal(reconnectDelay(1, 1), RECONNECT_FIRST_MS * 2);
    assert.equal(reconnectDelay(3, 1), RECONNECT_FIRST_MS * 8);
    assert.equal(reconnectDelay(50, 1), RECONNECT_MAX_MS);
    assert.equal(reconnectDelay(10_000, 0), RECONNECT_MAX_MS / 2);
  });
});

describe('classifyRedisFailure', () => {
  test('tells refused credentials, no server, TLS trouble and loading apart', () => {
    class ConnectionTimeoutError extends Error {}
    const cases: [Error, string][] = [
      [new Error('WRONGPASS invalid username-password pair'), 'auth'],
      [new Error('NOAUTH Authentication required.'), 'auth'],
      [new Error('ERR AUTH <password> called without any password configured'), 'auth'],
      [withCode('connect ECONNREFUSED 1.2.3.4:6379', 'ECONNREFUSED'), 'unreachable'],
      [withCode('getaddrinfo ENOTFOUND nohost', 'ENOTFOUND'), 'unreachable'],
      [new ConnectionTimeoutError('Connection timeout'), 'unreachable'],
      [withCode('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT'), 'tls'],
      [withCode('wrong version number', 'ERR_SSL_WRONG_VERSION_NUMBER'), 'tls'],
      [new Error('LOADING Redis is loading the dataset in memory'), 'loading'],
      [new Error('ERR unknown command'), 'other'],
    ];
    for (const [error, kind] of cases)
      assert.equal(classifyRedisFailure(error), kind, error.message);
  });

  test('each start failure says what to change, without the password', () => {
    const url = 'rediss://relay:hunter2@cache.lan:6380';
    const tls = startFailureMessage(
      url,
      withCode('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT'),
    );
    assert.match(
      tls,
      /^The TLS connection to Redis at cache\.lan:6380 \(RELAY_REDIS_URL=rediss:\/\/relay:\*\*\*@cache\.lan:6380\) failed/,
    );
    assert.match(tls, /NODE_EXTRA_CA_CERTS/);
    assert.match(startFailureMessage(url, new Error('LOADING busy')), /still loading its data/);
    class ConnectionTimeoutError extends Error {}
    assert.match(
      startFailureMessage(url, new ConnectionTimeoutError('Connection timeout')),
      /cannot be reached \(Connection timeout\).*with rediss:\/\/, also that the port speaks TLS/,
    );
    for (const message of [tls, startFailureMessage(url, new Error('ERR odd'))]) {
      assert.doesNotMatch(message, /hunter2/);
    }
  });
});
