// A long Slack outage, and how soon the relay catches up. Each failed run used to double its
// own back-off (1 s up to a minute), so after a long outage the first post came up to a
// minute after Slack was back. Now the relay has one notion of "Slack is down": it probes
// Slack at a steady short interval while down, and every run that waits on Slack goes on as
// soon as Slack answers: each batch posted or edited once, in its order, within one probe
// interval (plus the time the posts take) of Slack answering again.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ACTION_KINDS, actionId } from '../../src/core/slack/controls/ids.js';
import type { WebApiCall } from '../support/fake-slack/index.js';
import { captureLog } from '../support/log-capture.js';
import { CHANNEL } from '../support/relay-harness.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import {
  answerFile,
  batchMessages,
  click,
  E2E_MODE,
  headerOf,
  relayStarter,
  waitForAnswered,
  waitForBatchMessage,
} from './relay-steps.js';

/** How often the relay probes Slack while it is down, in this test. */
const PROBE_EVERY_MS = 100;
/**
 * What the posts themselves may take on a slow, loaded machine once Slack answers: the probe
 * that sees it, the run tried first, then the others (the Web API client's own quick retries
 * included). Production probes every 2 s, so that is within 5 s there.
 */
const MARGIN_MS = 2500;
/**
 * The queue's back-off in this test: before, a run failing through the outage below would
 * have waited 0.1, 0.2, 0.4 … s, doubling past 6 s, so its next try came seconds after Slack
 * was back, far past the margin.
 */
const BACK_OFF = { retryBaseMs: 100, retryMostMs: 60_000 };
/** Probes that must fail before Slack comes back: an outage of about 6 s. */
const OUTAGE_PROBES = 60;

const oneTap = (seq: number, prompt: string) => ({
  seq,
  questions: [{ id: 'go', type: 'yes-no', prompt }],
});

/** The header a batch's channel message has. */
const title = (run: string, seq: number) => `Run ${run} · batch ${seq}`;

/** The successful calls of `method` to the channel whose message has `header`. */
const okCallsFor = (calls: readonly WebApiCall[], method: string, header: string) =>
  calls.filter((c) => {
    if (c.method !== method || c.status !== 200 || c.response.ok !== true) return false;
    if (c.args.channel !== CHANNEL) return false;
    const blocks = typeof c.args.blocks === 'string' ? JSON.parse(c.args.blocks) : c.args.blocks;
    return headerOf((blocks ?? []) as never) === header;
  });

const mode = E2E_MODE;
describe(`a long Slack outage (${mode} mode)`, () => {
  const startRelay = relayStarter();

  test('every waiting batch is posted once, in order, within a probe interval of Slack answering', {
    timeout: 120_000,
  }, async () => {
    const h = await startRelay({
      start: { queue: BACK_OFF, slackProbeEveryMs: PROBE_EVERY_MS },
    });
    const slack = h.slack;
    const runA = h.runDir('run-a');
    await writeQuestionFile(runA, 1, oneTap(1, 'Before the outage?'));
    const first = await waitForBatchMessage(slack, 'run-a', 1);

    const lift = slack.startOutage();
    // answered during the outage: its answer file is written, its message edit waits
    await click(slack, first.ts, actionId(ACTION_KINDS.oneTap, 0, 'yes'));
    assert.equal((await answerFile(runA, 1)).seq, 1);
    // new batches during the outage: the next of run-a, and two other runs
    await writeQuestionFile(runA, 2, oneTap(2, 'Next in run-a?'));
    await writeQuestionFile(h.runDir('run-b'), 1, oneTap(1, 'In run-b?'));
    await writeQuestionFile(h.runDir('run-c'), 1, oneTap(1, 'In run-c?'));
    const failedProbes = () =>
      slack.calls.filter((c) => c.method === 'auth.test' && c.status === 500).length;
    const chatCalls = () => slack.calls.filter((c) => c.method.startsWith('chat.')).length;
    await waitFor(() => failedProbes() >= OUTAGE_PROBES / 2, 'half the outage');
    const halfway = chatCalls();
    await waitFor(() => failedProbes() >= OUTAGE_PROBES, `${OUTAGE_PROBES} failed probes`);
    assert.equal(
      chatCalls(),
      halfway,
      'in the second half of the outage the runs wait on Slack, trying nothing of their own',
    );

    const backAt = Date.now();
    lift();
    const answered = await waitForAnswered(slack, first.ts);
    const posted = await Promise.all([
      waitForBatchMessage(slack, 'run-a', 2),
      waitForBatchMessage(slack, 'run-b', 1),
      waitForBatchMessage(slack, 'run-c', 1),
    ]);
    assert.ok(answered && posted.length === 3);

    const calls = slack.calls;
    const edit = okCallsFor(calls, 'chat.update', title('run-a', 1));
    const posts = [
      okCallsFor(calls, 'chat.postMessage', title('run-a', 2)),
      okCallsFor(calls, 'chat.postMessage', title('run-b', 1)),
      okCallsFor(calls, 'chat.postMessage', title('run-c', 1)),
    ];
    assert.equal(edit.length, 1, 'the answered batch is edited once');
    for (const post of posts) assert.equal(post.length, 1, 'each batch is posted once');
    for (const run of ['run-b', 'run-c']) assert.equal(batchMessages(slack, run, 1).length, 1);
    const [editCall] = edit;
    const [aPost] = posts[0] as WebApiCall[];
    assert.ok(
      calls.indexOf(editCall as WebApiCall) < calls.indexOf(aPost as WebApiCall),
      'in run-a, batch 1 is closed before batch 2 is posted',
    );
    const latest = Math.max(...[editCall, ...posts.map((p) => p[0])].map((c) => Number(c?.at)));
    assert.ok(
      latest - backAt <= PROBE_EVERY_MS + MARGIN_MS,
      `all caught up ${latest - backAt} ms after Slack answered again (probe every ${PROBE_EVERY_MS} ms)`,
    );
  });

  test('a refusal no retry fixes stays one after the outage: held back, not probed into a loop', {
    timeout: 120_000,
  }, async () => {
    const { log, records } = captureLog('warn');
    const h = await startRelay({
      log,
      start: { queue: BACK_OFF, slackProbeEveryMs: PROBE_EVERY_MS },
    });
    const slack = h.slack;
    const lift = slack.startOutage();
    await writeQuestionFile(h.runDir('run-refused'), 1, oneTap(1, 'Refused?'));
    const failedProbes = () =>
      slack.calls.filter((c) => c.method === 'auth.test' && c.status === 500).length;
    await waitFor(() => failedProbes() >= 5, 'a few failed probes');
    // Slack is back, but refuses this run's batch for good (as a channel the bot left would)
    slack.refuse('chat.postMessage', 'not_in_channel', (args) =>
      String(args.text).includes('run-refused'),
    );
    lift();
    const refused = () => slack.calls.filter((c) => c.response.error === 'not_in_channel').length;
    await waitFor(() => refused() === 1, 'the refused post');
    // a later batch of another run goes through: time enough for many probe intervals
    await writeQuestionFile(h.runDir('run-later'), 1, oneTap(1, 'Another run?'));
    await waitForBatchMessage(slack, 'run-later', 1);
    await writeQuestionFile(h.runDir('run-later'), 2, oneTap(2, 'And one more?'));
    assert.equal(refused(), 1, 'a permanent refusal is not tried again');
    const heldBack = records.filter((r) =>
      String(r.msg).startsWith('Slack refused to show the batch, and trying again will not help'),
    );
    assert.equal(heldBack.length, 1);
    assert.equal(heldBack[0]?.code, 'not_in_channel');
  });
});
