import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readCommandLine } from '../../src/cli/command-line.js';
import { loadConfig } from '../../src/config/load-config.js';
import { parseDuration } from '../../src/config/parse-duration.js';

const BASE = {
  SLACK_BOT_TOKEN: 'xoxb-1',
  SLACK_APP_TOKEN: 'xapp-1',
  SLACK_CHANNEL_ID: 'C0123ABCD',
};

/** Durations people write, and what each means in milliseconds. */
const READ: [string, number][] = [
  ['90', 90_000],
  ['90s', 90_000],
  ['1.5m', 90_000],
  ['15m', 900_000],
  ['2h', 7_200_000],
  [' 2H ', 7_200_000],
  ['1.5h', 5_400_000],
  ['15 m', 900_000],
  ['250ms', 250],
  ['596h', 596 * 3_600_000],
];
const REFUSED = ['', 'm', '0', '0m', '-5m', '15 minutes', '3d', '1e3', '.5h', '597h'];

describe('one duration grammar', () => {
  test('a number of seconds, or a number and ms, s, m or h', () => {
    for (const [text, ms] of READ) assert.deepEqual(parseDuration(text), { ok: true, value: ms });
    for (const text of REFUSED) assert.equal(parseDuration(text).ok, false, text);
    assert.deepEqual(parseDuration('0'), {
      ok: false,
      error: 'expects a duration longer than zero; found "0"',
    });
    assert.deepEqual(parseDuration('597h'), {
      ok: false,
      error: 'can be at most 596h (the longest a timer waits); found "597h"',
    });
  });

  test('RELAY_REMIND_AFTER, RELAY_ESCALATE_AFTER and ask --timeout read a duration alike', () => {
    for (const [text, ms] of READ) {
      const config = loadConfig(
        {
          ...BASE,
          RELAY_REMIND_AFTER: text,
          RELAY_ESCALATE_AFTER: text,
          RELAY_ESCALATE_TO: 'S0ONCALL1',
        },
        '/work',
      );
      assert.deepEqual(config.reminders, {
        remindAfterMs: ms,
        escalate: { afterMs: ms, to: 'S0ONCALL1' },
      });
      assert.deepEqual(readCommandLine(['ask', '--timeout', text]), {
        command: 'ask',
        ask: { input: '-', timeout: { ms, text } },
      });
    }
    for (const text of REFUSED.filter((t) => t !== '')) {
      assert.throws(() => loadConfig({ ...BASE, RELAY_REMIND_AFTER: text }, '/work'), text);
      assert.equal(readCommandLine(['ask', '--timeout', text]).command, 'usage-error', text);
    }
  });
});

test('reminder and escalation settings are read into the config; blank is off', () => {
  assert.equal(loadConfig(BASE, '/work').reminders, undefined);
  assert.equal(loadConfig({ ...BASE, RELAY_REMIND_AFTER: ' ' }, '/work').reminders, undefined);
});

test('bad or half-set reminder settings are refused with how to fix them', () => {
  assert.throws(
    () => loadConfig({ ...BASE, RELAY_REMIND_AFTER: '15 minutes' }, '/work'),
    /RELAY_REMIND_AFTER expects a duration, a number of seconds \(90\) or a number and a unit: ms, s, m, h \(15m, 1\.5h\); found "15 minutes"; leave it unset to turn this off/,
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
