import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { FREE_WRITE_INPUT } from '../src/core/slack/controls/ids.js';
import { type FakeSlack, startFakeSlack } from '../test/support/fake-slack/index.js';
import { elementsOf } from '../test/support/relay-harness.js';
import { makeTempDir, sampleBatch } from '../test/support/temp-dir.js';
import {
  CHANNEL,
  hrNow,
  okPosts,
  renameIntoPlace,
  socketConnected,
  startRelay,
  USER,
  until,
} from './bench-support.js';

/** The Slack calls one answered batch cost, by method. */
export type CallCounts = Record<string, number>;

/** How long a person waits between two actions in the "at a person's pace" case. */
const PERSON_PACE_MS = 1000;

/** Answers the batch in message `ts` as one person; `pauseMs` between actions. */
async function answer(slack: FakeSlack, ts: string, pauseMs: number): Promise<void> {
  const find = (actionId: string) => {
    const message = slack.message(CHANNEL, ts);
    const found = message && elementsOf(message.blocks).find((e) => e.actionId === actionId);
    if (!found) throw new Error(`bench: no ${actionId} in the batch message`);
    return { channel: CHANNEL, ts, blockId: found.blockId, actionId: found.actionId, user: USER };
  };
  const pause = () => new Promise((resolve) => setTimeout(resolve, pauseMs));
  await slack.selectOption({ ...find('o7.choose:0'), value: '1' });
  await pause();
  await slack.selectOptions({ ...find('o7.choose-many:1'), values: ['0', '2'] });
  await pause();
  const modals = slack.views(USER).length;
  await slack.clickButton(find('o7.free-write:2'));
  const modal = await until(() => slack.views(USER)[modals], 'the free-write form');
  await slack.submitView({
    viewId: String(modal.id),
    user: USER,
    values: { [FREE_WRITE_INPUT.blockId]: { [FREE_WRITE_INPUT.actionId]: 'the quarter ends' } },
  });
  await pause();
  await slack.clickButton(find('o7.yes-no:3:yes'));
  await pause();
  await slack.clickButton(find('o7.submit'));
}

/**
 * Figure 10: the Slack calls a 4-question batch costs from its post to its answered message,
 * answered by one person, as a burst (each action as soon as the last was acknowledged) and
 * at a person's pace (a second between actions).
 */
export async function measureCallsPerBatch(): Promise<{ burst: CallCounts; paced: CallCounts }> {
  const slack = await startFakeSlack({ now: hrNow });
  const { dir, cleanup } = await makeTempDir('o7-bench-calls-');
  await mkdir(path.join(dir, 'runs'), { recursive: true });
  const relay = startRelay(slack, dir);
  try {
    await socketConnected(slack);
    const one = async (name: string, pauseMs: number): Promise<CallCounts> => {
      const before = slack.calls.length;
      const postsBefore = okPosts(slack).length;
      const runDir = path.join(dir, 'runs', name);
      await renameIntoPlace(runDir, 1, sampleBatch(1));
      const post = await until(() => okPosts(slack)[postsBefore], `the post of ${name}`);
      const ts = String((post.response as { ts?: string }).ts);
      await answer(slack, ts, pauseMs);
      await until(() => {
        const message = slack.message(CHANNEL, ts);
        return message && elementsOf(message.blocks).length === 0;
      }, `the answered message of ${name}`);
      // an edit still under way would be counted late: give it a moment
      await new Promise((resolve) => setTimeout(resolve, 500));
      const counts: CallCounts = {};
      // from the post on: what the start-up asked of Slack is not the batch's
      for (const call of slack.calls.slice(before).slice(slack.calls.slice(before).indexOf(post))) {
        counts[call.method] = (counts[call.method] ?? 0) + 1;
      }
      return counts;
    };
    const burst = await one('burst', 0);
    const paced = await one('paced', PERSON_PACE_MS);
    return { burst, paced };
  } finally {
    await relay.stop();
    await slack.close();
    await cleanup();
  }
}

/** The figure's lines. */
export function callsLines(counts: { burst: CallCounts; paced: CallCounts }): string[] {
  const line = (c: CallCounts) =>
    `${c['chat.postMessage'] ?? 0} post, ${c['chat.update'] ?? 0} updates, ${c['views.open'] ?? 0} modal${
      Object.keys(c).some((m) => !['chat.postMessage', 'chat.update', 'views.open'].includes(m))
        ? ` (and ${Object.entries(c)
            .filter(([m]) => !['chat.postMessage', 'chat.update', 'views.open'].includes(m))
            .map(([m, n]) => `${n} ${m}`)
            .join(', ')})`
        : ''
    }`;
  return [
    `10. Slack calls for a 4-question batch answered by one person: as a burst of clicks ${line(counts.burst)}; a second between clicks ${line(counts.paced)}  (target: at most one chat.update per message per 250 ms)`,
  ];
}
