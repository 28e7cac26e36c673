import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createSlackProbe } from '../../../src/slack/start-up/probe-slack.js';
import { startFakeSlack } from '../../support/fake-slack/index.js';
import { freePort } from '../../support/relay-harness.js';

describe('the Slack probe', () => {
  test('one auth.test: an answer, an outage page, a refusal, or no answer at all', async () => {
    const slack = await startFakeSlack();
    try {
      const probe = createSlackProbe({
        apiUrl: slack.apiUrl,
        token: slack.botToken,
        timeoutMs: 5000,
      });
      assert.deepEqual(await probe(), { method: 'auth.test', kind: 'ok' });
      const lift = slack.startOutage();
      assert.deepEqual(await probe(), { method: 'auth.test', kind: 'http-error', status: 500 });
      lift();
      slack.failNext('auth.test', { error: 'internal_error' });
      assert.deepEqual(await probe(), {
        method: 'auth.test',
        kind: 'refused',
        code: 'internal_error',
      });
      const wrongToken = createSlackProbe({
        apiUrl: slack.apiUrl,
        token: 'xoxb-no',
        timeoutMs: 5000,
      });
      assert.deepEqual(await wrongToken(), {
        method: 'auth.test',
        kind: 'refused',
        code: 'invalid_auth',
      });
      const calls = slack.calls.filter((c) => c.method === 'auth.test');
      assert.equal(calls.length, 4, 'one call each: no retries');
    } finally {
      await slack.close();
    }
    const nobody = createSlackProbe({
      apiUrl: `http://127.0.0.1:${await freePort()}/api/`,
      token: 'xoxb-x',
      timeoutMs: 5000,
    });
    const outcome = await nobody();
    assert.equal(outcome.kind, 'network');
  });
});
