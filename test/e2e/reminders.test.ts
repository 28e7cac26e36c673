import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BatchRecord } from '../../src/core/batch/batch-record.js';
import { ACTION_KINDS } from '../../src/core/slack/controls/ids.js';
import { readStoredRecords } from '../../src/store/read-stored-records.js';
import {
  ALICE,
  BOB,
  CHANNEL,
  channelMessages,
  findElement,
  type Harness,
  visibleText,
} from '../support/relay-harness.js';
import { sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { at, click, E2E_MODE, nextEphemeral, relayStarter } from './relay-steps.js';

const MINUTE = 60_000;

const mode = E2E_MODE;
describe(`reminders and escalation end to end (${mode} mode)`, () => {
  let h: Harness;
  const startRelay = relayStarter();

  test('reminders grow apart, escalation hands off, and a restart neither loses nor repeats one', async () => {
    let clock = Date.parse('2026-01-05T09:00:00.000Z');
    const now = () => new Date(clock);
    h = await startRelay({
      config: {
        reminders: { remindAfterMs: MINUTE, escalate: { afterMs: 10 * MINUTE, to: BOB } },
      },
      start: { reminders: { now, tickMs: 20 } },
    });
    const run = h.runDir('run-remind');
    await writeQuestionFile(run, 1, sampleBatch(1));
    const posted = await waitFor(() => channelMessages(h.slack)[0], 'batch message');
    const ts = posted.ts;

    /** The batch's record as stored on disk. */
    const stored = async (): Promise<BatchRecord | undefined> =>
      (await readStoredRecords(h.config.stateDir)).find((r) => r.runDir === run && r.seq === 1);
    const replies = () => channelMessages(h.slack)[0]?.replies ?? [];
    const reminders = () => replies().filter((r) => /still waiting/.test(r.text));
    /** Lets the scheduler run several passes (to show nothing more happens). */
    const severalTicks = () => new Promise((resolve) => setTimeout(resolve, 300));

    const first = await waitFor(async () => (await stored())?.nextReminderAt, 'deadlines stored');
    assert.equal(first, new Date(clock + MINUTE).toISOString());
    assert.equal((await stored())?.escalateAt, new Date(clock + 10 * MINUTE).toISOString());

    // nobody assigned or on it: the first reminder mentions nobody
    clock += MINUTE + 1000;
    const r1 = await waitFor(() => reminders()[0], 'first reminder');
    assert.doesNotMatch(r1.text, /<@/);
    await severalTicks();
    assert.equal(reminders().length, 1);
    // the next one is twice as far away
    assert.equal((await stored())?.nextReminderAt, new Date(clock + 2 * MINUTE).toISOString());

    // Alice is on it; the next reminder, due while the relay restarts, is sent once
    await h.slack.clickButton(
      at(ts, findElement(h.slack.message(CHANNEL, ts)?.blocks ?? [], ACTION_KINDS.claim)),
    );
    await waitFor(
      () => /is on it/.test(visibleText(h.slack.message(CHANNEL, ts) as never)),
      'claim shown',
    );
    const restarting = h.restart();
    clock += 2 * MINUTE + 1000;
    await restarting;
    const r2 = await waitFor(() => reminders()[1], 'second reminder after the restart');
    assert.match(r2.text, new RegExp(`<@${ALICE}>`));
    await severalTicks();
    assert.equal(reminders().length, 2);
    await h.restart();
    await severalTicks();
    assert.equal(reminders().length, 2, 'a restart does not repeat a reminder');

    // past the escalation deadline: handed to Bob, who gets the DM, the claim and the reminder
    clock = Date.parse('2026-01-05T09:10:30.000Z');
    const escalated = await waitFor(
      () => replies().find((r) => /handed this to/.test(r.text)),
      'escalation in the thread',
    );
    assert.match(escalated.text, new RegExp(`the relay handed this to <@${BOB}>`));
    const r3 = await waitFor(() => reminders()[2], 'third reminder');
    assert.match(r3.text, new RegExp(`<@${BOB}>`));
    await waitFor(
      () =>
        new RegExp(`Assigned to <@${BOB}>.*<@${BOB}> is on it`).test(
          visibleText(h.slack.message(CHANNEL, ts) as never),
        ),
      'escalation shown on the message',
    );
    const dm = h.slack.calls.find((c) => c.method === 'conversations.open' && c.args.users === BOB);
    assert.ok(dm, 'Bob gets a copy in his direct messages');
    const record = await stored();
    assert.equal(record?.escalated, true);
    assert.deepEqual(
      record?.handoffs?.map((x) => [x.from, x.to]),
      [['the relay', BOB]],
    );

    await h.restart();
    await severalTicks();
    assert.equal(replies().filter((r) => /handed this to/.test(r.text)).length, 1);
    assert.equal(reminders().length, 3);
    assert.deepEqual(h.slack.failures, []);
  });

  test('Snooze, shown once reminders have started, puts the next one off an hour for everyone', async () => {
    let clock = Date.parse('2026-01-05T09:00:00.000Z');
    h = await startRelay({
      config: { reminders: { remindAfterMs: MINUTE } },
      start: { reminders: { now: () => new Date(clock), tickMs: 20 } },
    });
    const run = h.runDir('run-snooze');
    await writeQuestionFile(run, 1, sampleBatch(1));
    const { ts } = await waitFor(() => channelMessages(h.slack)[0], 'batch message');
    const shown = () => visibleText(h.slack.message(CHANNEL, ts) as never);
    const has = (id: string) => JSON.stringify(h.slack.message(CHANNEL, ts)?.blocks).includes(id);
    const reminders = () =>
      (channelMessages(h.slack)[0]?.replies ?? []).filter((r) => /still waiting/.test(r.text));
    const nextAt = (ms: number) => `<!date^${Math.floor(ms / 1000)}^`;
    await waitFor(
      async () => (await readStoredRecords(h.config.stateDir))[0]?.nextReminderAt,
      'deadline',
    );
    assert.equal(has(ACTION_KINDS.snooze), false, 'no Snooze before the first reminder');

    clock += MINUTE + 1000;
    await waitFor(() => reminders()[0], 'first reminder');
    const due = clock + 2 * MINUTE;
    await waitFor(() => shown().includes(`Next reminder ${nextAt(due)}`), 'next reminder shown');
    assert.equal(has(ACTION_KINDS.snooze), true);

    await click(h.slack, ts, ACTION_KINDS.snooze, BOB);
    const until = clock + 60 * MINUTE;
    const told = await nextEphemeral(h.slack, BOB, 0);
    assert.match(told.text, /next reminder comes no sooner than 1 h from now/);
    await waitFor(() => shown().includes(`Next reminder ${nextAt(until)}`), 'the line moves');
    const [record] = await readStoredRecords(h.config.stateDir);
    assert.equal(record?.nextReminderAt, new Date(until).toISOString());

    clock = due + 1000; // the old deadline passes, across a restart
    await h.restart();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(reminders().length, 1, 'none at the old deadline');
    clock = until + 1000;
    await waitFor(() => reminders()[1], 'the reminder an hour after the press');
    assert.deepEqual(h.slack.failures, []);
  });
});
