import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pino } from 'pino';
import type { BatchRecord } from '../../src/core/batch/batch-record.js';
import { ESCALATION_FROM } from '../../src/core/batch/hand-off.js';
import { createReminders, type ReminderPolicy } from '../../src/queue/reminders.js';
import { START, startRecord } from './reminder-record.js';

const MINUTE = 60_000;
const log = pino({ level: 'silent' });

/** An in-memory stand-in for the queue's record changes, plus what was reminded. */
function setup(policy: ReminderPolicy, initial: Partial<BatchRecord> = {}) {
  let clock = START;
  const records = new Map<string, BatchRecord>();
  const base: BatchRecord = startRecord(initial);
  records.set(base.key, base);
  const sent: { count: number; who: string | undefined }[] = [];
  let failNext = false;
  const make = () =>
    createReminders({
      store: { all: () => [...records.values()] },
      actions: {
        async amendOpen(key, change) {
          const record = records.get(key);
          if (record?.status !== 'open') return undefined;
          const next = change(record);
          if (next) records.set(key, next);
          return next;
        },
      },
      async remind(record, count) {
        if (failNext) {
          failNext = false;
          throw new Error('Slack is down');
        }
        sent.push({ count, who: record.assignee ?? record.claimedBy });
      },
      policy,
      log,
      now: () => new Date(clock),
      tickMs: 3_600_000, // the tests tick by hand
    });
  return {
    make,
    sent,
    record: () => records.get('k1') as BatchRecord,
    set: (change: Partial<BatchRecord>) =>
      records.set('k1', { ...(records.get('k1') as BatchRecord), ...change }),
    advance: (ms: number) => {
      clock += ms;
    },
    failOnce: () => {
      failNext = true;
    },
  };
}

describe('reminders', () => {
  test('deadlines are stored at first sight, and reminders double their interval up to the limit', async () => {
    const s = setup({ remindAfterMs: MINUTE, limit: 3 });
    const reminders = s.make();
    await reminders.tick();
    assert.equal(s.record().nextReminderAt, new Date(START + MINUTE).toISOString());
    assert.equal(s.record().reminders, 0);
    assert.deepEqual(s.sent, []);

    const steps = [MINUTE, 2 * MINUTE, 4 * MINUTE];
    for (const [index, step] of steps.entries()) {
      s.advance(step - 1);
      await reminders.tick();
      assert.equal(s.sent.length, index, 'nothing before the deadline');
      s.advance(1);
      await reminders.tick();
      await reminders.tick();
      assert.equal(s.sent.length, index + 1, 'exactly one at the deadline');
    }
    assert.equal(s.record().nextReminderAt, undefined, 'no deadline after the last');
    s.advance(24 * 60 * MINUTE);
    await reminders.tick();
    assert.equal(s.sent.length, 3);
    await reminders.close();
  });

  test('a reminder due while stopped is sent once by the next scheduler; none is repeated', async () => {
    const s = setup({ remindAfterMs: MINUTE });
    const first = s.make();
    await first.tick();
    await first.close();
    s.advance(5 * MINUTE); // down for a while
    const second = s.make();
    await second.tick();
    await second.tick();
    assert.equal(s.sent.length, 1);
    await second.close();
    const third = s.make();
    await third.tick();
    assert.equal(s.sent.length, 1);
    await third.close();
  });

  test('mentions the assignee, else the claimer; a failed post is tried again', async () => {
    const s = setup({ remindAfterMs: MINUTE }, { claimedBy: 'U0ALICE01' });
    const reminders = s.make();
    await reminders.tick();
    s.advance(MINUTE);
    s.failOnce();
    await reminders.tick();
    assert.deepEqual(s.sent, []);
    assert.equal(s.record().reminders, 0, 'the failed reminder is not counted');
    await reminders.tick();
    assert.deepEqual(s.sent, [{ count: 1, who: 'U0ALICE01' }]);
    s.set({ assignee: 'U0BOB0001' });
    s.advance(2 * MINUTE);
    await reminders.tick();
    assert.deepEqual(s.sent[1], { count: 2, who: 'U0BOB0001' });
    await reminders.close();
  });

  test('escalation hands the batch off once, recorded in the chain, moving the claim', async () => {
    const s = setup(
      { escalate: { afterMs: 30 * MINUTE, to: 'S0ONCALL1' } },
      { claimedBy: 'U0ALICE01' },
    );
    const reminders = s.make();
    await reminders.tick();
    assert.equal(s.record().escalateAt, new Date(START + 30 * MINUTE).toISOString());
    s.advance(30 * MINUTE);
    await reminders.tick();
    await reminders.tick();
    const record = s.record();
    assert.equal(record.escalated, true);
    assert.equal(record.assignee, 'S0ONCALL1');
    assert.equal(record.claimedBy, 'S0ONCALL1');
    assert.equal(record.handoffs?.length, 1);
    assert.equal(record.handoffs?.[0]?.from, ESCALATION_FROM);
    assert.equal(record.handoffs?.[0]?.at, new Date(START + 30 * MINUTE).toISOString());
    await reminders.close();
  });

  test('answered batches get nothing', async () => {
    const s = setup({ remindAfterMs: MINUTE, escalate: { afterMs: MINUTE, to: 'U0BOB0001' } });
    const reminders = s.make();
    await reminders.tick();
    s.set({ status: 'answered' });
    s.advance(10 * MINUTE);
    await reminders.tick();
    assert.deepEqual(s.sent, []);
    assert.equal(s.record().escalated, undefined);
    await reminders.close();
  });
});
