// Channels per watched folder end to end (issue 14 §1): two roots routed to two channels of the
// stand-in, each batch posted and answered in its own, a hand-off from one of them, the Home tab
// listing both, a channel the bot is not in, notices and ask's folder, and a restart with other
// routing that leaves posted batches where they are.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { ACTION_KINDS, actionId } from '../../src/core/slack/controls/ids.js';
import { readStoredRecords } from '../../src/store/read-stored-records.js';
import type { FakeSlack, ObservedView } from '../support/fake-slack/index.js';
import { captureLog, LEVEL } from '../support/log-capture.js';
import {
  ALICE,
  BOB,
  CHANNEL,
  findElement,
  type Harness,
  type RelayHarnessOptions,
  startRelayHarness,
} from '../support/relay-harness.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import {
  assertSlackHealthy,
  directCopy,
  E2E_MODE,
  handOffBatch,
  ids,
  openHome,
  waitForAnswerFile,
} from './relay-steps.js';

const MINUTE = 60_000;

/** The second channel: alice and bob are in it, and so is the bot. */
const BETA = 'C0BETA001';
/** A channel the bot was never invited to. */
const GAMMA = 'C0GAMMA01';

const oneTap = (seq: number, prompt: string) => ({
  seq,
  questions: [{ id: 'go', type: 'yes-no', prompt }],
});

/** The top-level messages of `channel` that belong to a batch, by their header. */
const batchIn = (slack: FakeSlack, channel: string, runName: string, seq = 1) =>
  slack.messages(channel).filter((m) => {
    const first = m.blocks[0] as { type?: string; text?: { text?: string } } | undefined;
    return first?.type === 'header' && first.text?.text === `Run ${runName} · batch ${seq}`;
  });

const waitForBatchIn = (slack: FakeSlack, channel: string, runName: string, seq = 1) =>
  waitFor(() => batchIn(slack, channel, runName, seq)[0], `${runName} batch ${seq} in ${channel}`);

/** Presses Yes on a one-tap batch's message, wherever it is (a channel or a direct message). */
async function tapYes(slack: FakeSlack, at: { channel: string; ts: string }, user: string) {
  const message = slack.message(at.channel, at.ts);
  assert.ok(message, `message ${at.ts} in ${at.channel}`);
  const yes = findElement(message.blocks, actionId(ACTION_KINDS.oneTap, 0, 'yes'));
  const result = await slack.clickButton({ ...at, ...ids(yes), user });
  assert.equal(result.acked, true);
}

/** Whether a message shows no controls any more (answered, closed). */
const isFinal = (slack: FakeSlack, at: { channel: string; ts: string }) => {
  const message = slack.message(at.channel, at.ts);
  return message !== undefined && !JSON.stringify(message.blocks).includes('"action_id"');
};

/** The text of the Home tab's sections. */
const homeLines = (view: ObservedView | undefined): string[] =>
  ((view?.blocks ?? []) as { type: string; text?: { text: string } }[])
    .filter((b) => b.type === 'section')
    .map((b) => b.text?.text ?? '');

/** Waits until `user`'s Home tab has a line matching each pattern, and returns its lines. */
const homeShowing = (slack: FakeSlack, user: string, patterns: RegExp[]) =>
  waitFor(
    () => {
      const lines = homeLines(slack.homeView(user));
      return patterns.every((p) => lines.some((line) => p.test(line))) && lines;
    },
    `${user}'s Home tab showing ${patterns.join(', ')}`,
  );

const mode = E2E_MODE;
describe(`channels per watched folder (${mode} mode)`, () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  /** The folders watched unless a test says otherwise, and their channels. */
  const ALPHA_AND_BETA = (root: string): [string, string][] => [
    [path.join(root, 'alpha-runs'), CHANNEL],
    [path.join(root, 'beta-runs'), BETA],
  ];

  /** A relay watching `folders` (each made), with BETA and GAMMA added; CHANNEL is the default. */
  async function start(more: RelayHarnessOptions = {}, folders = ALPHA_AND_BETA) {
    h = await startRelayHarness(mode, {
      ...more,
      start: { home: { refreshDelayMs: 50 }, ...more.start },
      prepare: async (slack, root) => {
        slack.addChannel({ id: BETA, name: 'beta', members: [ALICE, BOB] });
        slack.addChannel({ id: GAMMA, name: 'gamma', members: [ALICE], botIsMember: false });
        for (const [folder] of folders(root)) await mkdir(folder, { recursive: true });
        return { watch: folders(root).map(([folder, channel]) => ({ path: folder, channel })) };
      },
    });
    return h;
  }
  const alpha = (run: string) => path.join((h as Harness).root, 'alpha-runs', run);
  const beta = (run: string) => path.join((h as Harness).root, 'beta-runs', run);

  test('each batch lands in its folder’s channel and is answered there; a hand-off from one; the Home tab lists both', async () => {
    const { slack } = await start();
    await writeQuestionFile(alpha('run-a'), 1, oneTap(1, 'Ship alpha?'));
    await writeQuestionFile(beta('run-b'), 1, oneTap(1, 'Ship beta?'));
    const a = await waitForBatchIn(slack, CHANNEL, 'run-a');
    const b = await waitForBatchIn(slack, BETA, 'run-b');
    assert.deepEqual(batchIn(slack, BETA, 'run-a'), [], 'run-a is not in beta');
    assert.deepEqual(batchIn(slack, CHANNEL, 'run-b'), [], 'run-b is not in the first channel');

    // The Home tab lists both, each with its channel.
    await openHome(slack, ALICE);
    const lines = await homeShowing(slack, ALICE, [
      new RegExp(`^\\*run-a\\* · batch 1 in <#${CHANNEL}> · waiting`),
      new RegExp(`^\\*run-b\\* · batch 1 in <#${BETA}> · waiting`),
    ]);
    assert.equal(lines.length, 2, lines.join('\n'));

    // In beta, alice hands run-b to bob: told in beta's thread, a copy in bob's messages.
    await handOffBatch(slack, { channel: BETA, ts: b.ts, from: ALICE, to: BOB });
    const copy = await directCopy(slack, BOB);
    const repliesOf = (channel: string, ts: string) =>
      slack.messages(channel).find((m) => m.ts === ts)?.replies ?? [];
    await waitFor(
      () =>
        repliesOf(BETA, b.ts).some(
          (r) => r.text.startsWith(':arrow_right:') && r.text.includes(BOB),
        ),
      'the hand-off told in the thread in beta',
    );
    assert.deepEqual(repliesOf(CHANNEL, a.ts), [], 'nothing in the first channel');

    // Each is answered where it is: bob in his copy, alice in the first channel.
    await tapYes(slack, copy, BOB);
    await waitForAnswerFile(beta('run-b'), 1);
    await waitFor(() => isFinal(slack, { channel: BETA, ts: b.ts }), 'run-b answered in beta');
    await tapYes(slack, { channel: CHANNEL, ts: a.ts }, ALICE);
    await waitForAnswerFile(alpha('run-a'), 1);
    await waitFor(() => isFinal(slack, { channel: CHANNEL, ts: a.ts }), 'run-a answered');

    await homeShowing(slack, ALICE, [
      new RegExp(`^\\*run-a\\* · batch 1 in <#${CHANNEL}> · answered by <@${ALICE}>`),
      new RegExp(`^\\*run-b\\* · batch 1 in <#${BETA}> · answered by <@${BOB}>`),
    ]);
    assert.equal(batchIn(slack, CHANNEL, 'run-a').length, 1, 'posted once');
    assert.equal(batchIn(slack, BETA, 'run-b').length, 1, 'posted once');
    assertSlackHealthy(h as Harness);
  });

  test('reminders and escalation of a batch go to its thread in its channel', async () => {
    let clock = Date.parse('2026-01-05T09:00:00.000Z');
    const { slack } = await start({
      config: {
        reminders: { remindAfterMs: MINUTE, escalate: { afterMs: 5 * MINUTE, to: BOB } },
      },
      start: { reminders: { now: () => new Date(clock), tickMs: 20 } },
    });
    await writeQuestionFile(beta('run-b'), 1, oneTap(1, 'Ship beta?'));
    const b = await waitForBatchIn(slack, BETA, 'run-b');
    const replies = () => slack.messages(BETA).find((m) => m.ts === b.ts)?.replies ?? [];
    const stateDir = (h as Harness).config.stateDir;
    await waitFor(
      async () => (await readStoredRecords(stateDir)).some((r) => r.nextReminderAt),
      'the reminder deadline stored',
    );

    clock += MINUTE + 1000;
    await waitFor(() => replies().some((r) => /still waiting/.test(r.text)), 'a reminder in beta');
    clock += 5 * MINUTE;
    await waitFor(
      () => replies().some((r) => r.text.startsWith(':arrow_right:') && r.text.includes(BOB)),
      'the escalation told in beta',
    );
    const copy = await directCopy(slack, BOB);
    await tapYes(slack, copy, BOB);
    await waitForAnswerFile(beta('run-b'), 1);
    assert.deepEqual(slack.messages(CHANNEL), [], 'nothing in the first channel');
    assertSlackHealthy(h as Harness);
  });

  test('a channel the bot is not in: warned at start, its batch refused (not_in_channel) and named on the Home tab, the others carry on; once invited, it is posted', async () => {
    const { log, records } = captureLog('info');
    const { slack } = await start({ log }, (root) => [
      ...ALPHA_AND_BETA(root),
      [path.join(root, 'gamma-runs'), GAMMA],
    ]);
    const warned = records.filter((r) => r.level === LEVEL.warn && r.channel === GAMMA);
    assert.equal(warned.length, 1, JSON.stringify(records.filter((r) => r.level >= LEVEL.warn)));
    assert.match(warned[0]?.msg ?? '', /the bot is not in the batch channel/);

    const gammaRun = path.join((h as Harness).root, 'gamma-runs', 'run-g');
    await writeQuestionFile(gammaRun, 1, oneTap(1, 'Ship gamma?'));
    await writeQuestionFile(alpha('run-a'), 1, oneTap(1, 'Ship alpha?'));
    await waitForBatchIn(slack, CHANNEL, 'run-a');
    const stateDir = (h as Harness).config.stateDir;
    await waitFor(
      async () =>
        (await readStoredRecords(stateDir)).some(
          (r) => r.runDir === gammaRun && r.undeliverable?.code === 'not_in_channel',
        ),
      'run-g refused with not_in_channel',
    );
    const refused = slack.calls.filter(
      (c) => c.method === 'chat.postMessage' && c.args.channel === GAMMA,
    );
    assert.ok(refused.length > 0 && refused.every((c) => c.response.error === 'not_in_channel'));

    await openHome(slack, ALICE);
    await homeShowing(slack, ALICE, [
      new RegExp(
        `^\\*run-g\\* · batch 1 in <#${GAMMA}> · :warning: not shown in Slack \\(not_in_channel\\)`,
      ),
      new RegExp(`^\\*run-a\\* · batch 1 in <#${CHANNEL}> · waiting`),
    ]);

    // invited (as doctor would then tell the relay): the batch shows in gamma
    slack.addChannel({ id: GAMMA, name: 'gamma', members: [ALICE] });
    (h as Harness).retryRefused();
    const g = await waitForBatchIn(slack, GAMMA, 'run-g');
    await tapYes(slack, { channel: GAMMA, ts: g.ts }, ALICE);
    await waitForAnswerFile(gammaRun, 1);
  });

  test('notices go to the channel of the folder they are about; ask’s folder uses the default channel', async () => {
    // only beta-runs is routed; the default channel (SLACK_CHANNEL_ID) is the first one
    const { slack } = await start({}, (root) => [[path.join(root, 'beta-runs'), BETA]]);
    const run = beta('run-b');
    await mkdir(path.join(run, 'qa'), { recursive: true });
    await writeFile(path.join(run, 'qa', 'q-out-01.json'), JSON.stringify(oneTap(1, 'Odd?')));
    const noticeIn = (channel: string) =>
      // the notification text is escaped for mrkdwn
      slack.messages(channel).filter((m) => /looks? like Q&amp;A files but/.test(m.text));
    await waitFor(() => noticeIn(BETA)[0], 'the look-alike notice in beta');

    const ask = path.join((h as Harness).config.stateDir, 'asks', 'ask-1');
    await writeQuestionFile(ask, 1, oneTap(1, 'Asked through ask?'));
    const asked = await waitForBatchIn(slack, CHANNEL, 'ask-1');
    await tapYes(slack, { channel: CHANNEL, ts: asked.ts }, ALICE);
    await waitForAnswerFile(ask, 1);
    assert.deepEqual(noticeIn(CHANNEL), [], 'no notice in the default channel');
    assert.deepEqual(batchIn(slack, BETA, 'ask-1'), []);
    assertSlackHealthy(h as Harness);
  });

  test('a restart with other routing leaves posted batches in their channel; new ones follow it', async () => {
    const { slack } = await start();
    await writeQuestionFile(alpha('run-a'), 1, oneTap(1, 'Ship alpha?'));
    const a = await waitForBatchIn(slack, CHANNEL, 'run-a');
    const harness = h as Harness;
    await harness.restart(async () => {
      harness.config.watch = [{ path: path.join(harness.root, 'alpha-runs'), channel: BETA }];
    });
    await tapYes(slack, { channel: CHANNEL, ts: a.ts }, ALICE);
    await waitForAnswerFile(alpha('run-a'), 1);
    await waitFor(
      () => isFinal(slack, { channel: CHANNEL, ts: a.ts }),
      'run-a answered where it is',
    );
    assert.deepEqual(batchIn(slack, BETA, 'run-a'), [], 'not posted again in beta');

    await writeQuestionFile(alpha('run-a'), 2, oneTap(2, 'And batch 2?'));
    await waitForBatchIn(slack, BETA, 'run-a', 2);
    assert.deepEqual(batchIn(slack, CHANNEL, 'run-a', 2), []);
    assertSlackHealthy(harness);
  });
});
