import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { healthOf } from '../../src/ops/health.js';

const up = {
  mode: 'socket',
  slack: 'connected',
  watcher: 'watching',
  slackApiReachable: true,
} as const;

describe('healthOf', () => {
  test('200 when Slack is connected and the runs are watched', () => {
    assert.deepEqual(healthOf(up), {
      status: 200,
      body: {
        ok: true,
        slack: { mode: 'socket', connection: 'connected', apiReachable: true },
        watcher: 'watching',
      },
    });
  });

  test('503 with the reason while Socket Mode reconnects', () => {
    const report = healthOf({ ...up, slack: 'reconnecting' });
    assert.equal(report.status, 503);
    assert.equal(report.body.ok, false);
    assert.equal(
      report.body.reason,
      'the Socket Mode connection to Slack is reconnecting: clicks in Slack do not reach the relay',
    );
  });

  test('503 in HTTP mode when the server does not listen, and both reasons at once', () => {
    const report = healthOf({ ...up, mode: 'http', slack: 'disconnected', watcher: 'starting' });
    assert.equal(report.status, 503);
    assert.equal(
      report.body.reason,
      'the relay is not listening for Slack requests (PORT); the run folders are still being scanned for the first time',
    );
  });

  test('a Web API that does not answer is reported, and is no reason for 503 on its own', () => {
    const report = healthOf({ ...up, slackApiReachable: false });
    assert.equal(report.status, 200);
    assert.equal(report.body.slack.apiReachable, false);
  });

  test('503 once the relay stops watching', () => {
    const report = healthOf({ ...up, watcher: 'stopped' });
    assert.equal(report.status, 503);
    assert.match(String(report.body.reason), /no longer watched/);
  });
});
