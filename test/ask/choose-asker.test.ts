import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseTarget } from '../../src/ask/choose-asker.js';

const TOKEN = { RELAY_TOKEN: 't'.repeat(40) };

test('no relay URL: the state folder of --state-dir, RELAY_STATE_DIR or the default, from cwd', () => {
  assert.deepEqual(chooseTarget({}, {}, '/w'), {
    ok: true,
    value: { kind: 'local', stateDir: '/w/.7/slack-relay' },
  });
  assert.deepEqual(chooseTarget({}, { RELAY_STATE_DIR: 's' }, '/w'), {
    ok: true,
    value: { kind: 'local', stateDir: '/w/s' },
  });
  assert.deepEqual(chooseTarget({ stateDir: '/x' }, { RELAY_STATE_DIR: 's' }, '/w'), {
    ok: true,
    value: { kind: 'local', stateDir: '/x' },
  });
});

test('--relay (or RELAY_URL) with RELAY_TOKEN: the relay at that URL', () => {
  const chosen = chooseTarget({ relay: 'https://relay.example:8443/' }, TOKEN, '/w');
  assert.ok(chosen.ok && chosen.value.kind === 'remote');
  assert.equal(chosen.value.relay.url.href, 'https://relay.example:8443/');
  const fromEnv = chooseTarget({}, { ...TOKEN, RELAY_URL: 'http://127.0.0.1:8443' }, '/w');
  assert.ok(fromEnv.ok && fromEnv.value.kind === 'remote', 'http to loopback is fine');
});

test('what would leak the token or is unclear is refused, saying what to do', () => {
  const refused = (flags: { relay?: string; stateDir?: string }, env: Record<string, string>) => {
    const chosen = chooseTarget(flags, env, '/w');
    assert.ok(!chosen.ok);
    return chosen.error;
  };
  assert.match(
    refused({ relay: 'http://relay.example:8443' }, TOKEN),
    /token would cross the network unencrypted; use https:\/\//,
  );
  assert.match(
    refused({ relay: 'https://relay.example' }, {}),
    /^RELAY_TOKEN is not set; asking the relay at https:\/\/relay.example needs/,
  );
  assert.match(
    refused({ relay: 'https://u:p@relay.example' }, TOKEN),
    /must not hold a user name or password/,
  );
  assert.match(refused({ relay: 'relay.example:8443' }, TOKEN), /must start with https:\/\//);
  assert.match(refused({ relay: 'not a url' }, TOKEN), /is not a URL/);
  assert.match(refused({ relay: 'https://r', stateDir: '/s' }, TOKEN), /pick one/);
  for (const error of [refused({ relay: 'http://r.example' }, TOKEN)])
    assert.ok(!error.includes(TOKEN.RELAY_TOKEN));
});
