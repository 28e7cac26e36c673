import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load-config.js';
import { SOCKET_ENV as base } from './config-env.js';

describe('RELAY_ALLOWED_USERS', () => {
  test('unset or blank: no allow list, so anyone may answer', () => {
    assert.equal('allowedUsers' in loadConfig(base, '/p'), false);
    assert.equal(loadConfig({ ...base, RELAY_ALLOWED_USERS: '  ' }, '/p').allowedUsers, undefined);
  });

  test('user IDs (U…, W…) and user group IDs (S…) are split apart, trimmed and deduplicated', () => {
    const config = loadConfig(
      { ...base, RELAY_ALLOWED_USERS: ' U0ALICE01, S0DEVS001 ,W0GRID001,U0ALICE01,' },
      '/p',
    );
    assert.deepEqual(config.allowedUsers, {
      users: ['U0ALICE01', 'W0GRID001'],
      groups: ['S0DEVS001'],
    });
  });

  test('names, handles and channel IDs are refused with how to find the IDs', () => {
    assert.throws(
      () => loadConfig({ ...base, RELAY_ALLOWED_USERS: 'U0ALICE01,@bob,C0123ABCD' }, '/p'),
      (error: Error) => {
        const line = error.message.split('\n').find((l) => l.includes('RELAY_ALLOWED_USERS'));
        assert.ok(line, error.message);
        assert.match(line, /^ {2}- RELAY_ALLOWED_USERS has "@bob", "C0123ABCD", which are not IDs/);
        assert.match(line, /Copy member ID/);
        assert.match(line, /S0123ABCD/);
        return true;
      },
    );
  });

  test('only commas is a mistake, not "anyone"', () => {
    assert.throws(
      () => loadConfig({ ...base, RELAY_ALLOWED_USERS: ',,' }, '/p'),
      /RELAY_ALLOWED_USERS lists no IDs/,
    );
  });
});
