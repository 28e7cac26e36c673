// A Slack outage as operators read it in the log: one warning when Slack stops answering, one
// line when it answers again (with how many batches wait), one warning for the run it held
// up, and no stack for any of these expected, retried failures; the retries in between are
// the Web API client's and the queue's, and are not logged one by one.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { captureLog, LEVEL, type LogRecord } from '../support/log-capture.js';
import type { Harness } from '../support/relay-harness.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import {
  E2E_MODE,
  failedCalls,
  formatBatch,
  relayStarter,
  waitForBatchMessage,
} from './relay-steps.js';

const DOWN = 'Slack cannot be reached; the relay keeps trying and logs once it is back';
const BACK = 'Slack can be reached again';
const RETRY = 'could not show the batch to people; keeping it and trying again';

/** The Web API client tries each call 5 times (1 + 4 retries) before the queue's back-off. */
const CLIENT_ATTEMPTS = 5;

const mode = E2E_MODE;
describe(`a Slack outage in the log (${mode} mode)`, () => {
  let h: Harness | undefined;
  const startRelay = relayStarter();

  test('logged once when it starts and once when it ends, however many retries', async () => {
    const { log, records } = captureLog('info');
    h = await startRelay({ log });
    const slack = h.slack;
    slack.failNext('chat.postMessage', { status: 503 }, 1000);
    const run = h.runDir('run-outage');
    await writeQuestionFile(run, 1, formatBatch(1));
    // two attempts of the queue failed (each the client's 5), and a third has started
    await waitFor(
      () => failedCalls(slack, 'chat.postMessage').length > 2 * CLIENT_ATTEMPTS,
      "the queue's third attempt during the outage",
    );
    slack.clearFailures('chat.postMessage');
    await waitForBatchMessage(slack, 'run-outage', 1);
    await waitFor(
      () => records.some((r) => r.msg === 'batch posted' && r.runDir === run),
      'the batch logged as posted',
    );

    const lines = (msg: string) => records.filter((r) => r.msg === msg);
    const [down, ...moreDown] = lines(DOWN);
    assert.equal(
      moreDown.length,
      0,
      `one line for the outage, not one for each of ${failedCalls(slack, 'chat.postMessage').length} failed calls`,
    );
    assert.equal(down?.level, LEVEL.warn);
    assert.equal(down?.method, 'chat.postMessage');
    assert.equal(down?.problem, 'HTTP 503');
    const [back, ...moreBack] = lines(BACK);
    assert.equal(moreBack.length, 0);
    assert.equal(back?.batchesWaiting, 1, 'the batch the outage held up');
    assert.ok(Number(back?.downForMs) > 0);

    const retries = lines(RETRY).filter((r) => r.runDir === run);
    assert.equal(
      retries.length,
      1,
      "one warning for the run, at the first of the queue's failures",
    );
    assert.match(String(retries[0]?.error), /^Slack did not take batch 1: .*503/);
    const order = [down, back, lines('batch posted')[0]].map((r) =>
      records.indexOf(r as LogRecord),
    );
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
      'down, back, then posted',
    );

    const stacks = records
      .filter(
        (r) => r.level >= LEVEL.warn && typeof (r.err as { stack?: unknown })?.stack === 'string',
      )
      .map((r) => r.msg);
    assert.deepEqual(stacks, [], 'no stack trace for an expected, retried failure');
    assert.deepEqual(slack.failures, []);
  });
});
