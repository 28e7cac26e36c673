import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BatchRecord } from '../../src/core/batch/batch-record.js';
import { PresentUnavailable } from '../../src/queue/presenter.js';
import { createReminders } from '../../src/queue/reminders.js';
import { captureLog } from '../support/log-capture.js';
import { START, startRecord } from './reminder-record.js';

const MINUTE = 60_000;

test('a reminder Slack does not take: one warning, without a stack, and debug lines for its retries', async () => {
  const { log, records: lines } = captureLog('debug');
  let record: BatchRecord = startRecord();

  let clock = START;
  let failures = 3;
  const reminders = createReminders({
    store: { all: () => [record] },
    actions: {
      async amendOpen(_key, change) {
        const next = change(record);
        if (next) record = next;
        return next;
      },
    },
    async remind() {
      if (failures > 0) {
        failures -= 1;
        throw new PresentUnavailable('Slack did not take the reminder for batch 1: HTTP 503');
      }
    },
    policy: { remindAfterMs: MINUTE, limit: 5 },
    log,
    now: () => new Date(clock),
    tickMs: 3_600_000, // ticked by hand
  });
  await reminders.tick(); // deadlines set
  clock += MINUTE;
  for (let i = 0; i < 4; i += 1) await reminders.tick();
  const seen = lines
    .filter((l) => /reminder/.test(l.msg))
    .map((l) => [l.level, l.msg, l.error, l.err]);
  assert.deepEqual(seen, [
    [
      40,
      'could not send a reminder; will try again',
      'Slack did not take the reminder for batch 1: HTTP 503',
      undefined,
    ],
    [
      20,
      'could not send a reminder; will try again',
      'Slack did not take the reminder for batch 1: HTTP 503',
      undefined,
    ],
    [
      20,
      'could not send a reminder; will try again',
      'Slack did not take the reminder for batch 1: HTTP 503',
      undefined,
    ],
    [30, 'reminder sent', undefined, undefined],
  ]);
  assert.equal(record.reminders, 1);
  await reminders.close();
});
