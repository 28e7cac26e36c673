import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/load-config.js';
import { describeDuration, parseDuration } from '../../src/config/parse-duration.js';

test('durations in seconds, minutes and hours', () => {
  assert.equal(parseDuration('30s'), 30_000);
  assert.equal(parseDuration('15m'), 900_000);
  assert.equal(parseDuration(' 2H '), 7_200_000);
  for (const bad of ['', '15', 'm', '0m', '-5m', '1.5h', '15 minutes', '3d']) {
    assert.equal(parseDuration(bad), undefined, bad);
  }
  assert.equal(describeDuration(7_200_000), '2 hours');
  assert.equal(describeDuration(60_000), '1 minute');
  assert.equal(describeDuration(45_000), '45 seconds');
});

const BASE = {
  SLACK_BOT_TOKEN: 'xoxb-1',
  SLACK_APP_TOKEN: 'xapp-1',
  SLACK_CHANNEL_ID: 'C0123ABCD',
};

test('reminder and escalation settings are read into the config', () => {
  const config = loadConfig(
    {
      ...BASE,
      RELAY_REMIND_AFTER: '15m',
      RELAY_ESCALATE_AFTER: '2h',
      RELAY_ESCALATE_TO: 'S0ONCALL1',
    },
    '/work',
  );
  assert.deepEqual(config.reminders, {
    remindAfterMs: 900_000,
    escalate: { afterMs: 7_200_000, to: 'S0ONCALL1' },
  });
  assert.equal(loadConfig(BASE, '/work').reminders, undefined);
});

test('bad or half-set reminder settings are refused with how to fix them', () => {
  assert.throws(
    () => loadConfig({ ...BASE, RELAY_REMIND_AFTER: '15 minutes' }, '/work'),
    /RELAY_REMIND_AFTER is "15 minutes"; give a whole number and a unit, like 30s, 15m or 2h/,
  );
  assert.throws(
    () => loadConfig({ ...BASE, RELAY_ESCALATE_AFTER: '2h' }, '/work'),
    /RELAY_ESCALATE_TO is not set, but RELAY_ESCALATE_AFTER is/,
  );
  assert.throws(
    () =>
      loadConfig({ ...BASE, RELAY_ESCALATE_AFTER: '2h', RELAY_ESCALATE_TO: '@oncall' }, '/work'),
    /RELAY_ESCALATE_TO must be one user ID/,
  );
});
