// The App Home tab end to end: open batches of several runs (oldest first, with links and
// ages, and who is on them), the latest answered ones with who answered, and a refresh when a
// batch changes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ACTION_KINDS, actionId } from '../../src/core/slack/controls/ids.js';
import type { ObservedView } from '../support/fake-slack/index.js';
import { webClientFor } from '../support/fake-slack/slack-clients.js';
import { ALICE, BOB, CHANNEL, findElement, type Harness } from '../support/relay-harness.js';
import { writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import {
  E2E_MODE,
  ids,
  openHome,
  relayPerTest,
  relayStarter,
  waitForAnswerFile,
  waitForBatchMessage,
} from './relay-steps.js';

const ONE_TAP = (prompt: string) => ({
  seq: 1,
  questions: [{ id: 'go', type: 'yes-no', prompt }],
});

/** The Home clock runs 12 minutes ahead, so every batch made during the test is "12 min" old. */
const AHEAD_MS = 12 * 60_000 + 5_000;

/** The mrkdwn between the two headers (open) and after the second (answered). */
function parts(view: ObservedView): { open: string[]; answered: string[] } {
  const blocks = (view.blocks ?? []) as Record<string, unknown>[];
  const second = blocks.findIndex((b, i) => i > 0 && b.type === 'header');
  const textOf = (b: Record<string, unknown>) => String((b.text as { text: string }).text);
  const isSection = (b: Record<string, unknown>) => b.type === 'section';
  return {
    open: blocks.slice(0, second).filter(isSection).map(textOf),
    answered: blocks.slice(second).filter(isSection).map(textOf),
  };
}

const permalinkOf = (ts: string) => `/archives/${CHANNEL}/p${ts.replace('.', '')}`;

async function tapYes(h: Harness, runName: string): Promise<void> {
  const message = await waitForBatchMessage(h.slack, runName, 1);
  const yes = findElement(message.blocks, actionId(ACTION_KINDS.oneTap, 0, 'yes'));
  await h.slack.clickButton({ channel: CHANNEL, ts: message.ts, ...ids(yes), user: ALICE });
  await waitForAnswerFile(h.runDir(runName), 1);
}

const mode = E2E_MODE;
describe(`App Home (${mode} mode)`, () => {
  let h: Harness | undefined;
  const startRelay = relayStarter();

  test('lists open batches of every run oldest first with links and ages, answered ones with who, and refreshes when one is answered', async () => {
    h = await startRelay({
      start: { home: { refreshDelayMs: 50, now: () => new Date(Date.now() + AHEAD_MS) } },
    });
    const slack = h.slack;
    const shown = new Map<string, string>();
    // Posted one after another, so their ages are in this order.
    for (const [name, prompt] of [
      ['run-alpha', 'Ship alpha?'],
      ['run-bravo', 'Deploy <bravo> & notify @here?'],
      ['run-charlie', 'Charlie goes too?'],
    ] as const) {
      await writeQuestionFile(h.runDir(name), 1, ONE_TAP(prompt));
      shown.set(name, (await waitForBatchMessage(slack, name, 1)).ts);
    }
    await tapYes(h, 'run-alpha');

    const first = await waitFor(async () => {
      const view = await openHome(slack, BOB);
      return parts(view).answered.length === 1 && view;
    }, 'a Home tab showing the answered batch');
    const { open, answered } = parts(first);
    assert.equal(open.length, 2);
    assert.match(open[0] ?? '', /^\*run-bravo\* · batch 1 · waiting 12 min · </);
    assert.match(open[1] ?? '', /^\*run-charlie\* · batch 1 · waiting 12 min · </);
    assert.ok(open[0]?.includes(permalinkOf(shown.get('run-bravo') as string)), 'bravo link');
    assert.ok(open[1]?.includes(permalinkOf(shown.get('run-charlie') as string)), 'charlie link');
    // escaped, and the @ defused with a word joiner so the Home tab mentions nobody
    assert.match(open[0] ?? '', /\n>Deploy &lt;bravo&gt; &amp; notify @\u2060here\?$/);
    assert.match(
      answered[0] ?? '',
      new RegExp(`^\\*run-alpha\\* · batch 1 · answered by <@${ALICE}> 12 min ago`),
    );
    assert.ok(answered[0]?.includes(permalinkOf(shown.get('run-alpha') as string)));
    assert.match(answered[0] ?? '', /\n>Ship alpha\?$/);

    // ALICE opens hers too; answering bravo refreshes both tabs with no new event.
    await openHome(slack, ALICE);
    await tapYes(h, 'run-bravo');
    for (const user of [BOB, ALICE]) {
      const view = await waitFor(() => {
        const now = slack.homeView(user);
        return now && parts(now).answered.length === 2 && now;
      }, `${user}'s Home tab refreshed`);
      const after = parts(view);
      assert.equal(after.open.length, 1);
      assert.match(after.open[0] ?? '', /^\*run-charlie\*/);
      assert.match(after.answered[0] ?? '', /^\*run-bravo\* · batch 1 · answered by/);
      assert.match(after.answered[1] ?? '', /^\*run-alpha\*/);
    }

    // BOB says he is on charlie: every open Home tab names him.
    const charlie = await waitForBatchMessage(slack, 'run-charlie', 1);
    const claim = findElement(charlie.blocks, ACTION_KINDS.claim);
    await slack.clickButton({ channel: CHANNEL, ts: charlie.ts, ...ids(claim), user: BOB });
    for (const user of [BOB, ALICE]) {
      await waitFor(() => {
        const now = slack.homeView(user);
        return now && parts(now).open[0]?.includes(`· <@${BOB}> is on it`);
      }, `${user}'s Home tab naming who is on charlie`);
    }
    assert.deepEqual(slack.failures, []);
  });

  test('someone not on the allow list sees a note, not the batches', async () => {
    h = await startRelay({
      config: { allowedUsers: { users: [ALICE], groups: [] } },
      start: { home: { refreshDelayMs: 50 } },
    });
    await writeQuestionFile(h.runDir('run-secret'), 1, ONE_TAP('Rotate the secret keys?'));
    await waitForBatchMessage(h.slack, 'run-secret', 1);
    const bobs = JSON.stringify(await openHome(h.slack, BOB));
    assert.match(bobs, /you are not among them/);
    assert.doesNotMatch(bobs, /run-secret|Rotate/);
    const alices = JSON.stringify(await openHome(h.slack, ALICE));
    assert.match(alices, /run-secret/);
    assert.deepEqual(h.slack.failures, []);
  });
});

describe('App Home with more batches open than it lists', () => {
  const h = relayPerTest({ start: { home: { refreshDelayMs: 50 } } });

  test('opening it makes no Slack call per batch: message links come from the workspace URL, and only the rows listed are looked into', async () => {
    const slack = h.slack;
    const runs = 110;
    const names = Array.from({ length: runs }, (_, i) => `run-${String(i).padStart(3, '0')}`);
    for (const name of names) await writeQuestionFile(h.runDir(name), 1, ONE_TAP(`Go ${name}?`));
    await waitFor(
      () =>
        slack.calls.filter((c) => c.method === 'chat.postMessage' && c.response.ok).length >= runs,
      `${runs} batches posted`,
    );

    const before = slack.calls.length;
    const view = await openHome(slack, BOB);
    const { open } = parts(view);
    assert.equal(open.length, 93, 'as many rows as fit, one block left for the rest');
    assert.match(JSON.stringify(view), /…and 17 more, newer than these/);
    assert.match(JSON.stringify(view), /110 batches from 110 runs waiting/);
    const madeBefore = slack.calls.slice(before).map((c) => c.method);
    assert.deepEqual(madeBefore, ['views.publish'], 'nothing asked of Slack but the publish');

    // The link made is the one Slack gives for that message.
    const row = open[0] ?? '';
    const link = /<(https:[^|>]+)\|Open message>/.exec(row)?.[1];
    const first = (await waitForBatchMessage(slack, /^\*(run-\d+)\*/.exec(row)?.[1] ?? '', 1)).ts;
    const slackSays = await webClientFor(slack).chat.getPermalink({
      channel: CHANNEL,
      message_ts: first,
    });
    assert.equal(link, slackSays.permalink);

    // An answer refreshes the tab, still without a call per batch.
    const name = /^\*(run-\d+)\*/.exec(open[1] ?? '')?.[1] ?? '';
    await tapYes(h, name);
    await waitFor(() => {
      const now = slack.homeView(BOB);
      return now && parts(now).answered[0]?.startsWith(`*${name}* · batch 1 · answered`);
    }, 'the Home tab showing the answer');
    const permalinkCalls = slack.calls.filter((c) => c.method === 'chat.getPermalink');
    assert.equal(permalinkCalls.length, 1, "only the test's own call");
    assert.deepEqual(slack.failures, []);
  });
});
