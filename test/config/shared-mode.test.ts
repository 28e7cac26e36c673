import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig, loadSharedConfig } from '../../src/config/load-config.js';
import { ErrorCode, RelayError } from '../../src/errors.js';
import { createLogger } from '../../src/log/create-logger.js';
import { SOCKET_ENV as base } from './config-env.js';

/** The RelayError `run` throws (failing the test if it throws none or another kind). */
function configErrorOf(run: () => unknown): RelayError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof RelayError, String(error));
    assert.equal(error.code, ErrorCode.ConfigInvalid);
    return error;
  }
  assert.fail('expected a configuration error');
}

describe('shared mode configuration', () => {
  test('without RELAY_REDIS_URL nothing changes, even with RELAY_NODE set', () => {
    assert.equal('shared' in loadConfig(base, '/p', 'box'), false);
    assert.equal('shared' in loadConfig({ ...base, RELAY_NODE: 'n1' }, '/p', 'box'), false);
    assert.equal('shared' in loadConfig({ ...base, RELAY_REDIS_URL: '  ' }, '/p', 'box'), false);
    assert.equal(loadSharedConfig({}, 'box'), undefined);
  });

  test('RELAY_REDIS_URL turns it on; the node is RELAY_NODE, else the host name', () => {
    const url = 'rediss://relay:s3cret@redis.internal:6380/2';
    assert.deepEqual(loadConfig({ ...base, RELAY_REDIS_URL: url }, '/p', 'dev-box.lan').shared, {
      redisUrl: url,
      node: 'dev-box.lan',
    });
    assert.deepEqual(
      loadConfig({ ...base, RELAY_REDIS_URL: ' redis://h ', RELAY_NODE: ' ci_3 ' }, '/p', 'x')
        .shared,
      { redisUrl: 'redis://h', node: 'ci_3' },
    );
    assert.deepEqual(loadSharedConfig({ RELAY_REDIS_URL: 'redis://h:1' }, 'box'), {
      redisUrl: 'redis://h:1',
      node: 'box',
    });
  });

  test('a bad URL is named with what is wrong, and its password is never echoed', () => {
    const cases: Array<[string, RegExp]> = [
      ['http://relay:hunter2@h:6379', /must start with redis:\/\/ or rediss:\/\//],
      ['redis:/hunter2', /has no host/],
      ['hunter2', /is not a URL/],
      ['redis://u:hunter2@h:6379/hunter2', /not a database number/],
      ['redis://u:hunter2@h/?password=hunter2', /query or a fragment/],
    ];
    for (const [url, reason] of cases) {
      const error = configErrorOf(() => loadConfig({ ...base, RELAY_REDIS_URL: url }, '/p', 'b'));
      assert.match(error.message, /^ {2}- RELAY_REDIS_URL /m, url);
      assert.match(error.message, reason, url);
      assert.doesNotMatch(error.message, /hunter2/, url);
    }
  });

  test('a node name outside the safe alphabet is refused, naming RELAY_NODE', () => {
    for (const node of ['a:b', '-lead', 'x'.repeat(64), 'café', 'two words']) {
      const error = configErrorOf(() =>
        loadConfig({ ...base, RELAY_REDIS_URL: 'redis://h', RELAY_NODE: node }, '/p', 'box'),
      );
      assert.match(error.message, /- RELAY_NODE must be 1 to 63 letters, digits/, node);
    }
    assert.equal(
      loadConfig({ ...base, RELAY_REDIS_URL: 'redis://h', RELAY_NODE: 'x'.repeat(63) }, '/p', 'b')
        .shared?.node.length,
      63,
    );
  });

  test('a host name that cannot name the node asks for RELAY_NODE', () => {
    const error = configErrorOf(() =>
      loadConfig({ ...base, RELAY_REDIS_URL: 'redis://h' }, '/p', 'host:with:colons'),
    );
    assert.match(error.message, /RELAY_NODE is not set, and this machine's host name/);
    const shared = configErrorOf(() =>
      loadSharedConfig({ RELAY_REDIS_URL: 'redis://h' }, 'host:with:colons'),
    );
    assert.match(shared.message, /^Shared mode is not configured right\./);
    assert.match(shared.message, /set RELAY_NODE to/);
  });

  test('the logger hides a Redis URL logged under redisUrl', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'info', pretty: false, write: (l) => lines.push(l) });
    log.info({ redisUrl: 'redis://u:hunter2@h', shared: { redisUrl: 'redis://u:hunter2@h' } }, 'x');
    assert.doesNotMatch(lines.join(''), /hunter2/);
  });
});
