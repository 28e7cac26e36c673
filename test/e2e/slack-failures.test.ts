// Slack failing under the relay: rate limits, outages, refusals and a Socket Mode disconnect.
// Batches are still posted exactly once, answers still work, and the logs say what happened.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ACTION_KINDS } from '../../src/core/slack/controls/ids.js';
import type { ObservedMessage } from '../support/fake-slack/index.js';
import { LEVEL, type LogRecord } from '../support/log-capture.js';
import {
  ALICE,
  allConnected,
  CHANNEL,
  channelMessages,
  findElement,
  visibleText,
} from '../support/relay-harness.js';
import { waitFor } from '../support/wait.js';
import {
  afterCall,
  at,
  batchMessages,
  choose,
  current,
  E2E_MODE,
  expectAnswerFile,
  failedCalls,
  formatBatch,
  GO,
  holdCalls,
  holdMessageUpdates,
  okCalls,
  postFormatBatch,
  pressSubmit,
  pressYesNo,
  publishRun,
  relayPerTest,
  waitForBatchMessage,
  waitForClosed,
  writeFreeText,
} from './relay-steps.js';

/** A batch too big for one message: the preview pushes question 2 into a thread reply. */
const SPLIT_BATCH = {
  seq: 1,
  questions: [
    GO,
    {
      id: 'notes',
      type: 'free-write',
      prompt: 'Notes?',
      preview: { type: 'ascii', content: '+--+\n|  |\n'.repeat(1200) },
    },
  ],
};

/** The retry warnings the queue logged for one run. */
const retryWarnings = (records: readonly LogRecord[], runDir: string) =>
  records.filter(
    (r) =>
      r.level === LEVEL.warn &&
      r.runDir === runDir &&
      r.msg === 'could not show the batch to people; keeping it and trying again',
  );

/** The text of a logged error: an expected one's message, or an Error as pino serialises it. */
const errText = (r: LogRecord) => JSON.stringify(r.error ?? r.err ?? '');

const mode = E2E_MODE;
describe(`Slack failures end to end (${mode} mode)`, () => {
  const h = relayPerTest({ captureLog: 'info' });

  /** Answers a posted formatBatch with CSV and Yes, and checks the file and final message. */
  async function answerFormatBatch(runDir: string, ts: string, seq = 1) {
    await choose(h.slack, ts, 0, [1]);
    await pressYesNo(h.slack, ts, 1, true);
    await pressSubmit(h.slack, ts);
    await expectAnswerFile(runDir, formatBatch(seq), { format: 'CSV', go: true });
    return waitForClosed(h.slack, ts, 'final message');
  }

  test('a 429 on chat.postMessage: the batch is posted exactly once after Retry-After, and answers work', async () => {
    h.slack.failNext('chat.postMessage', { status: 429, retryAfter: 1 });
    const { run, posted } = await postFormatBatch(h, 'run-limited');
    assert.deepEqual(
      failedCalls(h.slack, 'chat.postMessage').map((c) => c.status),
      [429],
    );
    assert.equal(okCalls(h.slack, 'chat.postMessage').length, 1);
    assert.equal(channelMessages(h.slack).length, 1);

    const final = await answerFormatBatch(run, posted.ts);
    assert.match(visibleText(final), /\*Answer:\*\n>CSV/);
    assert.equal(okCalls(h.slack, 'chat.postMessage').length, 1, 'still exactly one post');
    assert.ok(
      h.logged.some((r) => /rate limit/i.test(r.msg)),
      'the Slack client logged the rate limit',
    );
    assert.deepEqual(h.slack.failures, []);
  });

  test('a 429 on chat.update at Submit: the file is written, then the final message appears after the retry', async () => {
    const { run, posted } = await postFormatBatch(h, 'run-update-limited');
    await choose(h.slack, posted.ts, 0, [0]);
    await pressYesNo(h.slack, posted.ts, 1, false);
    const updatesBefore = okCalls(h.slack, 'chat.update').length;

    h.slack.failNext('chat.update', { status: 429, retryAfter: 1 });
    let fileWhenRefused: boolean | undefined;
    afterCall(
      h.slack,
      (c) => c.method === 'chat.update' && c.status === 429,
      () => {
        fileWhenRefused = existsSync(path.join(run, 'qa', 'q-answers-001.json'));
      },
    );
    await pressSubmit(h.slack, posted.ts);
    await expectAnswerFile(run, formatBatch(1), { format: 'JSON', go: false });
    const final = await waitForClosed(h.slack, posted.ts, 'final message after the retry');
    assert.match(visibleText(final), new RegExp(`Answered by <@${ALICE}>`));
    const failed = failedCalls(h.slack, 'chat.update');
    assert.deepEqual(
      failed.map((c) => c.status),
      [429],
    );
    const updates = okCalls(h.slack, 'chat.update').slice(updatesBefore);
    assert.equal(updates.length, 1, 'one successful final update');
    assert.equal(fileWhenRefused, true, 'the file was written before the message was updated');
    assert.ok(h.logged.some((r) => /rate limit/i.test(r.msg)));
    assert.deepEqual(h.slack.failures, []);
  });

  test("503s on chat.postMessage beyond the client's own retries: the queue retries, posts once, answers work", async () => {
    // The Web API client tries 5 times (1 + 4 retries); all of them fail.
    h.slack.failNext('chat.postMessage', { status: 503 }, 5);
    const { run, posted } = await postFormatBatch(h, 'run-outage');
    assert.deepEqual(
      failedCalls(h.slack, 'chat.postMessage').map((c) => c.status),
      [503, 503, 503, 503, 503],
    );
    assert.equal(okCalls(h.slack, 'chat.postMessage').length, 1);
    assert.equal(channelMessages(h.slack).length, 1);
    const warnings = retryWarnings(h.logged, run);
    assert.equal(warnings.length, 1, 'one failed attempt of the queue, logged');
    assert.equal(warnings[0]?.seq, 1);
    // Slack answered 503: the run waits for Slack to answer again, not for a timer of its own
    assert.equal(warnings[0]?.retry, 'once Slack answers');
    assert.equal(warnings[0]?.retryInMs, undefined);
    assert.match(errText(warnings[0] as LogRecord), /503/);

    await answerFormatBatch(run, posted.ts);
    assert.equal(okCalls(h.slack, 'chat.postMessage').length, 1);
    assert.deepEqual(h.slack.failures, []);
  });

  test('a transient refusal for several attempts: the queue keeps retrying with back-off while another run is answered, then posts once', async () => {
    const other = h.runDir('run-other');
    await publishRun(other, { 'q-out-001.json': formatBatch(1) });
    const otherMessage = await waitForBatchMessage(h.slack, 'run-other', 1);

    const hold = holdCalls(h.slack, 'chat.postMessage', 'service_unavailable');
    const run = h.runDir('run-refused');
    await publishRun(run, { 'q-out-001.json': formatBatch(1) });
    await hold.waitRefused(2);
    // Meanwhile the other run works as usual: answered, file written, message updated.
    await answerFormatBatch(other, otherMessage.ts);
    assert.equal(channelMessages(h.slack).length, 1, 'the refused batch is not posted yet');

    await hold.release();
    const posted = await waitForBatchMessage(h.slack, 'run-refused', 1);
    assert.equal(channelMessages(h.slack).length, 2);
    assert.equal(okCalls(h.slack, 'chat.postMessage').length, 2, 'each batch posted once');
    const warnings = retryWarnings(h.logged, run);
    assert.equal(warnings.length, 1, 'a warning at the first failure, not one per retry');
    assert.match(errText(warnings[0] as LogRecord), /service_unavailable/);
    assert.equal(warnings[0]?.err, undefined, 'an expected failure is logged without a stack');

    await answerFormatBatch(run, posted.ts);
    assert.equal(okCalls(h.slack, 'chat.postMessage').length, 2);
    assert.deepEqual(h.slack.failures, []);
  });

  test("chat.update refused after Submit: the file is written, another run's batch is posted meanwhile, the final message follows", async () => {
    const { run, posted } = await postFormatBatch(h, 'run-stuck');
    await choose(h.slack, posted.ts, 0, [1]);
    await pressYesNo(h.slack, posted.ts, 1, true);

    const hold = holdMessageUpdates(h.slack);
    await pressSubmit(h.slack, posted.ts);
    await expectAnswerFile(run, formatBatch(1), { format: 'CSV', go: true });
    await hold.waitRefused();

    const other = h.runDir('run-next');
    await publishRun(other, { 'q-out-001.json': formatBatch(1) });
    const otherMessage = await waitForBatchMessage(h.slack, 'run-next', 1);
    assert.notEqual(otherMessage.ts, posted.ts);
    assert.ok(
      findElement(current(h.slack, posted.ts).blocks, ACTION_KINDS.submit),
      'the stuck message still shows its controls',
    );

    await hold.release();
    await waitForClosed(h.slack, posted.ts, 'final message');
    const warnings = retryWarnings(h.logged, run);
    assert.ok(warnings.length >= 1);
    assert.match(errText(warnings[0] as LogRecord), /internal_error/);
    assert.ok(
      h.logged.some((r) => r.msg === 'batch answered' && r.runDir === run && r.seq === 1),
      'the answers were logged as written',
    );
    await answerFormatBatch(other, otherMessage.ts);
    assert.deepEqual(h.slack.failures, []);
  });

  test("a failure between a batch's first message and its thread reply: the batch is still posted once", async () => {
    // The first message goes through; the reply right after it is refused once.
    afterCall(
      h.slack,
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === CHANNEL &&
        c.args.thread_ts === undefined &&
        c.response.ok === true,
      () => h.slack.failNext('chat.postMessage', { error: 'internal_error' }),
    );
    const run = h.runDir('run-split');
    await publishRun(run, { 'q-out-001.json': SPLIT_BATCH });
    await waitFor(
      () => okCalls(h.slack, 'chat.postMessage').some((c) => c.args.thread_ts !== undefined),
      'the thread reply posted after the retry',
    );
    assert.deepEqual(
      failedCalls(h.slack, 'chat.postMessage').map((c) => c.response.error),
      ['internal_error'],
    );
    assert.equal(
      batchMessages(h.slack, 'run-split', 1).length,
      1,
      'one channel message for the batch, not one per attempt',
    );
    const [posted] = batchMessages(h.slack, 'run-split', 1) as [ObservedMessage];
    assert.equal(posted.replies.length, 1, 'one thread reply');

    const reply = posted.replies[0]?.ts as string;
    await pressYesNo(h.slack, posted.ts, 0, true);
    await writeFreeText(h.slack, reply, 1, 'split but whole');
    await pressSubmit(h.slack, reply);
    await expectAnswerFile(run, SPLIT_BATCH, { go: true, notes: 'split but whole' });
    assert.equal(channelMessages(h.slack).length, 1);
    assert.deepEqual(h.slack.failures, []);
  });

  if (mode === 'socket') {
    test('a Socket Mode disconnect in the middle of a batch: the relay reconnects and the next click works', async () => {
      const { run, posted } = await postFormatBatch(h, 'run-reconnect');
      await choose(h.slack, posted.ts, 0, [0]);

      const opens = () => h.slack.calls.filter((c) => c.method === 'apps.connections.open');
      const held = await allConnected(h.slack);
      const opened = opens().length;
      await h.slack.disconnectAll('refresh_requested');
      await waitFor(
        () => opens().length >= opened + held && h.slack.connectionCount === held,
        'the relay reconnected',
      );

      await pressYesNo(h.slack, posted.ts, 1, true);
      const submit = findElement(current(h.slack, posted.ts).blocks, ACTION_KINDS.submit);
      const result = await h.slack.clickButton(at(posted.ts, submit));
      assert.equal(result.acked, true);
      await expectAnswerFile(run, formatBatch(1), { format: 'JSON', go: true });
      await waitForClosed(h.slack, posted.ts, 'final message');
      assert.deepEqual(h.slack.failures, []);
    });
  }
});
