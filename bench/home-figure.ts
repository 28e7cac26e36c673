import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { webApi } from '@slack/bolt';
import { batchKey, fingerprintOf } from '../src/core/batch/batch-key.js';
import { type BatchRecord, visibleSignature } from '../src/core/batch/batch-record.js';
import { runLogName, serializeRunLog } from '../src/store/run-log.js';
import { type FakeSlack, startFakeSlack } from '../test/support/fake-slack/index.js';
import { silentLogger } from '../test/support/fake-slack/slack-clients.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import {
  CHANNEL,
  hrNow,
  ms,
  okPosts,
  oneTapBatch,
  percentile,
  type RelayChild,
  socketConnected,
  startRelay,
  USER,
  until,
} from './bench-support.js';

/** The Home tab's publishes with `open` batches waiting, in ms, and the calls before the first. */
export interface HomeSample {
  open: number;
  /** app_home_opened → views.publish, the first time after the relay started */
  firstOpen: number;
  /** the same person opening it again (median of a few) */
  secondOpen: number;
  /** tap on a batch → views.publish showing it answered (median of a few) */
  afterAnswer: number;
  /** Web API calls the relay made between the first open and its publish, by method */
  callsBeforeFirst: Record<string, number>;
}

/** Runs answered one after another, each measuring a refresh; and how often the tab is reopened. */
const PROBES = 3;
const REOPENS = 5;

/**
 * Writes `count` runs that each have one open batch, as a relay that posted them would have
 * left them: the q-out file, its message in the stand-in, and the state record saying it is
 * shown. The relay then starts with them all open and posts nothing.
 */
async function seedOpenBatches(slack: FakeSlack, root: string, count: number): Promise<void> {
  const client = new webApi.WebClient(slack.botToken, {
    slackApiUrl: slack.apiUrl,
    logger: silentLogger,
    retryConfig: { retries: 0 },
  });
  const stateRuns = path.join(root, 'state', 'runs');
  await mkdir(stateRuns, { recursive: true });
  const base = Date.now() - 60 * 60_000;
  let next = 0;
  const seedOne = async (i: number) => {
    const runDir = path.join(root, 'runs', `open-${String(i).padStart(5, '0')}`);
    await mkdir(path.join(runDir, 'qa'), { recursive: true });
    const bytes = JSON.stringify(oneTapBatch(1));
    await writeFile(path.join(runDir, 'qa', 'q-out-001.json'), bytes);
    const posted = await client.chat.postMessage({ channel: CHANNEL, text: `run ${i}, batch 1` });
    const at = new Date(base + i * 100).toISOString();
    const record: BatchRecord = {
      key: batchKey(runDir, 1),
      runDir,
      seq: 1,
      fingerprint: fingerprintOf(bytes),
      status: 'open',
      drafts: {},
      createdAt: at,
      updatedAt: at,
    };
    const shown = { ...record, presentation: { channel: CHANNEL, ts: String(posted.ts) } };
    const stored = {
      ...shown,
      presentation: { ...shown.presentation, replies: [], shown: visibleSignature(record) },
    };
    await writeFile(path.join(stateRuns, runLogName(runDir)), serializeRunLog(runDir, [stored]));
  };
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) await seedOne(next++);
    }),
  );
}

/** Opens `user`'s Home tab; gives the time to its views.publish and the calls made meanwhile. */
async function openHome(slack: FakeSlack, user: string) {
  const before = slack.calls.length;
  const sentAt = hrNow();
  const result = await slack.sendEvent({
    type: 'app_home_opened',
    user,
    channel: 'D0HOME001',
    tab: 'home',
  });
  if (!result.acked) throw new Error('bench: app_home_opened was not acknowledged');
  const publish = await until(
    () =>
      slack.calls
        .slice(before)
        .find((c) => c.method === 'views.publish' && c.args.user_id === user),
    `views.publish for ${user}`,
    120_000,
  );
  const calls: Record<string, number> = {};
  for (const call of slack.calls.slice(before)) {
    if (call === publish) break;
    calls[call.method] = (calls[call.method] ?? 0) + 1;
  }
  return { ms: publish.at - sentAt, calls };
}

/** Taps Yes on a probe run's batch; gives the time to a publish for `user` showing it answered. */
async function answerAndWaitForHome(slack: FakeSlack, probe: string, user: string) {
  const post = okPosts(slack).find((c) => JSON.stringify(c.args).includes(probe));
  if (!post) throw new Error(`bench: ${probe} was not posted`);
  const blocks = (post.args.blocks ?? []) as {
    block_id?: string;
    elements?: { action_id?: string; value?: string }[];
  }[];
  const yes = blocks
    .flatMap((b) => (b.elements ?? []).map((e) => ({ blockId: String(b.block_id), ...e })))
    .find((e) => e.action_id?.startsWith('o7.one-tap') || e.value === 'yes');
  if (!yes?.action_id) throw new Error(`bench: ${probe} has no one-tap button`);
  const before = slack.calls.length;
  const tappedAt = hrNow();
  await slack.clickButton({
    channel: CHANNEL,
    ts: String((post.response as { ts?: string }).ts),
    blockId: yes.blockId,
    actionId: yes.action_id,
    user: USER,
  });
  const answered = `*${probe}* · batch 1 · answered`;
  const publish = await until(
    () =>
      slack.calls
        .slice(before)
        .find(
          (c) =>
            c.method === 'views.publish' &&
            c.args.user_id === user &&
            JSON.stringify(c.args.view).includes(answered),
        ),
    `Home tab showing ${probe} answered`,
    120_000,
  );
  return publish.at - tappedAt;
}

/** Waits until the relay uses under 2% of a core over a second (at most a minute). */
async function untilQuiet(relay: RelayChild): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const before = await relay.cpuSeconds();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if ((await relay.cpuSeconds()) - before <= 0.02) return;
  }
}

/** Figure 9 at one size: a relay started with `open` batches waiting, measured from outside. */
async function measureHomeAt(open: number): Promise<HomeSample> {
  const slack = await startFakeSlack({ now: hrNow });
  const { dir, cleanup } = await makeTempDir('o7-bench-home-');
  try {
    await seedOpenBatches(slack, dir, open);
    const probes = Array.from({ length: PROBES }, (_, i) => `probe-${i}`);
    for (const probe of probes) {
      const qa = path.join(dir, 'runs', probe, 'qa');
      await mkdir(qa, { recursive: true });
      await writeFile(path.join(qa, 'q-out-001.json'), JSON.stringify(oneTapBatch(1)));
    }
    const postsBefore = okPosts(slack).length;
    const relay = startRelay(slack, dir);
    try {
      await socketConnected(slack, 120_000);
      await until(
        () => okPosts(slack).length >= postsBefore + PROBES || undefined,
        'probe batches posted',
        600_000,
      );
      // the start-up's run syncs (each run's folder listed, its file read) end first
      await untilQuiet(relay);
      const first = await openHome(slack, USER);
      const again: number[] = [];
      for (let i = 0; i < REOPENS; i += 1) again.push((await openHome(slack, USER)).ms);
      const answers: number[] = [];
      for (const probe of probes) {
        answers.push(await answerAndWaitForHome(slack, probe, USER));
        // the next tap starts with the tab's refreshes done
        await new Promise((resolve) => setTimeout(resolve, 1500));
      }
      return {
        open,
        firstOpen: first.ms,
        secondOpen: percentile(again, 50),
        afterAnswer: percentile(answers, 50),
        callsBeforeFirst: first.calls,
      };
    } finally {
      await relay.stop();
    }
  } finally {
    await slack.close();
    await cleanup();
  }
}

/** Figure 9: the Home tab at each size in `sizes`, and with none open (the floor). */
export async function measureHome(sizes: readonly number[]): Promise<HomeSample[]> {
  const samples: HomeSample[] = [];
  for (const open of [0, ...sizes]) samples.push(await measureHomeAt(open));
  return samples;
}

/** The figure's lines, one column per size. */
export function homeLines(samples: readonly HomeSample[]): string[] {
  const row = (pick: (s: HomeSample) => string) => samples.map(pick).join(' / ');
  const sizes = samples.map((s) => (s.open === 0 ? '0 (floor)' : String(s.open))).join(' / ');
  const permalinks = row((s) => String(s.callsBeforeFirst['chat.getPermalink'] ?? 0));
  const others = row((s) =>
    String(
      Object.entries(s.callsBeforeFirst)
        .filter(([method]) => method !== 'chat.getPermalink')
        .reduce((sum, [, n]) => sum + n, 0),
    ),
  );
  return [
    `9.  Home tab publish with ${sizes} open batches  (target ≤ 300 ms each; calls bounded by the rows shown)`,
    `    first open: ${row((s) => ms(s.firstOpen))}`,
    `    second open: ${row((s) => ms(s.secondOpen))}`,
    `    refresh after an answer (tap → publish showing it): ${row((s) => ms(s.afterAnswer))}`,
    `    Slack calls before the first publish: chat.getPermalink ${permalinks}; other ${others}`,
  ];
}
