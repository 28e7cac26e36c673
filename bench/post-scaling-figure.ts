import { existsSync, watch } from 'node:fs';
import { mkdir, readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import type { FakeSlack, WebApiCall } from '../test/support/fake-slack/index.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import {
  CHANNEL,
  ms,
  oneTapBatch,
  percentile,
  type RelayChild,
  renameIntoPlace,
  socketConnected,
  startRelay,
  tapOneTap,
  until,
} from './bench-support.js';
import { openManyRuns } from './latency-figures.js';

/** One point of figure 1c: the relay with `openRuns` sibling runs waiting. */
export interface ScalePoint {
  openRuns: number;
  /** the next batch of a run whose earlier batch was answered → chat.postMessage */
  nextBatch: number[];
  /** a new run folder's first batch → chat.postMessage */
  newRun: number[];
  /** rename → noticed by fs.watch → chat.postMessage from the bench itself */
  floor: number[];
  /** resident memory once the idle window is over */
  rssMb: number;
  /** CPU share over `IDLE_MS`, starting `IDLE_AFTER_MS` after the last post */
  idleCpuPercent: number;
  /** CPU seconds in the `IDLE_AFTER_MS` before that (final updates, V8 handing heap back) */
  settleCpuSeconds: number;
  inotifyWatches: number;
}

export const IDLE_AFTER_MS = 3000;
export const IDLE_MS = 10_000;

/** The first successful chat.postMessage at or after `from` in the stand-in's call log. */
function postFrom(slack: FakeSlack, from: number): WebApiCall | undefined {
  const calls = slack.calls;
  for (let i = from; i < calls.length; i += 1) {
    const call = calls[i] as WebApiCall;
    if (call.method === 'chat.postMessage' && (call.response as { ok?: boolean }).ok === true) {
      return call;
    }
  }
  return undefined;
}

/**
 * Renames batch `seq` into `runDir`, waits for its post (the sample), then answers it and waits
 * for the answer file and the final message update, so the relay is idle again afterwards.
 */
async function postAndAnswer(slack: FakeSlack, runDir: string, seq: number): Promise<number> {
  const from = slack.calls.length;
  const renamedAt = await renameIntoPlace(runDir, seq, oneTapBatch(seq));
  const post = await until(() => postFrom(slack, from), `post of ${runDir} batch ${seq}`);
  const sample = post.at - renamedAt;
  const updatesFrom = slack.calls.length;
  await tapOneTap(slack, post);
  const answers = path.join(runDir, 'qa', `q-answers-${String(seq).padStart(3, '0')}.json`);
  await until(() => existsSync(answers), `answer file ${answers}`);
  await until(
    () => slack.calls.slice(updatesFrom).some((c) => c.method === 'chat.update'),
    `final message of ${runDir} batch ${seq}`,
  );
  return sample;
}

/**
 * The least a relay could take on this machine: a rename noticed by a plain fs.watch in this
 * process, then one chat.postMessage to the stand-in, awaited.
 */
async function measureFloor(slack: FakeSlack, dir: string, count: number): Promise<number[]> {
  const qa = path.join(dir, 'qa');
  await mkdir(qa, { recursive: true });
  const samples: number[] = [];
  for (let seq = 1; seq <= count; seq += 1) {
    const name = `q-out-${String(seq).padStart(3, '0')}.json`;
    const noticed = new Promise<void>((resolve) => {
      const watcher = watch(qa, (_event, file) => {
        if (file !== name) return;
        watcher.close();
        resolve();
      });
    });
    const renamedAt = await renameIntoPlace(dir, seq, oneTapBatch(seq));
    await noticed;
    const from = slack.calls.length;
    await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${slack.botToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ channel: CHANNEL, text: `floor ${seq}` }),
    });
    const post = await until(() => postFrom(slack, from), 'floor post');
    samples.push(post.at - renamedAt);
  }
  return samples;
}

/** Inotify watches the process holds, from /proc/<pid>/fdinfo of its inotify descriptors. */
export async function inotifyWatches(pid: number): Promise<number> {
  let count = 0;
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    if (target !== 'anon_inode:inotify') continue;
    const info = await readFile(`/proc/${pid}/fdinfo/${fd}`, 'utf8').catch(() => '');
    count += info.split('\n').filter((line) => line.startsWith('inotify wd:')).length;
  }
  return count;
}

/**
 * CPU of the relay from now (the last post) to `IDLE_AFTER_MS` later, in seconds, and its
 * share (%) over the `IDLE_MS` after that.
 */
async function idleCpu(relay: RelayChild): Promise<{ settle: number; idle: number }> {
  const start = await relay.cpuSeconds();
  await new Promise((resolve) => setTimeout(resolve, IDLE_AFTER_MS));
  const before = await relay.cpuSeconds();
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const idle = (((await relay.cpuSeconds()) - before) / (IDLE_MS / 1000)) * 100;
  return { settle: before - start, idle };
}

/** Batches of each column posted and answered before the first count is measured. */
const WARM_UP = 20;

/**
 * Figure 1c: one relay, with 0, then more and more open sibling runs (each with one batch
 * posted and waiting). At each count, once the posts are in: the idle window (CPU, memory,
 * inotify watches), then `samples` of each column, alternating, each beside a floor sample.
 * The runs measured are answered, so they add answered runs, not open ones.
 */
export async function measurePostScaling(
  slack: FakeSlack,
  root: string,
  openCounts: readonly number[],
  samples: number,
  say: (line: string) => void,
): Promise<ScalePoint[]> {
  const runsRoot = path.join(root, 'runs');
  await mkdir(runsRoot, { recursive: true });
  const relay = startRelay(slack, root);
  // outside the relay's folders, so that the floor's files are no work for the relay
  const floorDir = await makeTempDir('o7-bench-floor-');
  const points: ScalePoint[] = [];
  try {
    await socketConnected(slack);
    const watched = path.join(runsRoot, 'watched');
    let seq = 1;
    await postAndAnswer(slack, watched, seq); // its first batch: answered, the run is watched
    // A relay that just started runs its code for the first time (V8 has not compiled it yet),
    // and so does the floor: without a warm-up the column at 0 open runs measured that, not
    // open runs (the counts after it come after thousands of posts). Not counted; said.
    const warmUp: number[] = [];
    for (let i = 0; i < WARM_UP; i += 1) {
      seq += 1;
      warmUp.push(await postAndAnswer(slack, watched, seq));
      warmUp.push(await postAndAnswer(slack, path.join(runsRoot, `warm-up-${i}`), 1));
      await measureFloor(slack, path.join(floorDir.dir, `warm-up-${i}`), 1);
    }
    say(
      `    (warm-up: ${WARM_UP} batches of each column first, not counted: p50 ${p(warmUp, 50).toFixed(1)} ms, slowest ${Math.max(...warmUp).toFixed(1)} ms)`,
    );
    let open = 0;
    for (const target of [...openCounts].sort((a, b) => a - b)) {
      if (target > open) {
        const started = Date.now();
        await openManyRuns(slack, runsRoot, target - open, open);
        say(
          `    (${target - open} more open runs posted in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
        );
        open = target;
      }
      const cpu = await idleCpu(relay);
      const rssMb = await relay.rssMb();
      const watches = await inotifyWatches(relay.child.pid as number);
      const point: ScalePoint = {
        openRuns: open,
        nextBatch: [],
        newRun: [],
        floor: [],
        rssMb,
        idleCpuPercent: cpu.idle,
        settleCpuSeconds: cpu.settle,
        inotifyWatches: watches,
      };
      for (let i = 0; i < samples; i += 1) {
        seq += 1;
        point.nextBatch.push(await postAndAnswer(slack, watched, seq));
        const fresh = path.join(runsRoot, `fresh-${open}-${String(i).padStart(3, '0')}`);
        point.newRun.push(await postAndAnswer(slack, fresh, 1));
        point.floor.push(
          ...(await measureFloor(slack, path.join(floorDir.dir, `${open}-${i}`), 1)),
        );
      }
      say(scaleLine(point));
      points.push(point);
    }
  } finally {
    await relay.stop();
    await floorDir.cleanup();
  }
  return points;
}

const p = (xs: readonly number[], q: number) => percentile(xs, q);

/** One line of figure 1c. */
export function scaleLine(point: ScalePoint): string {
  const col = (xs: readonly number[]) => `p50 ${ms(p(xs, 50))}, p99 ${ms(p(xs, 99))}`;
  return [
    `1c. ${point.openRuns} open runs: next batch of a watched run → posted ${col(point.nextBatch)};`,
    `new run's first batch → posted ${col(point.newRun)}; floor ${col(point.floor)}`,
    `| resident ${point.rssMb.toFixed(0)} MB, CPU ${point.idleCpuPercent.toFixed(2)}% over ${IDLE_MS / 1000} s from ${IDLE_AFTER_MS / 1000} s after the last post (${point.settleCpuSeconds.toFixed(2)} s of CPU before), ${point.inotifyWatches} inotify watches`,
  ].join(' ');
}

/** The summary of figure 1c: slope per open run and the ratio of the largest count to none. */
export function slopeLine(points: readonly ScalePoint[]): string | undefined {
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last || last.openRuns === first.openRuns) return undefined;
  const runs = last.openRuns - first.openRuns;
  const slope = (pick: (pt: ScalePoint) => readonly number[]) => {
    const a = p(pick(first), 50);
    const b = p(pick(last), 50);
    return `${(((b - a) / runs) * 1000).toFixed(2)} µs per open run (${(b / a).toFixed(2)}× from ${first.openRuns} to ${last.openRuns})`;
  };
  return `    1c slope of p50: next batch ${slope((pt) => pt.nextBatch)}; new run ${slope((pt) => pt.newRun)}; floor ${slope((pt) => pt.floor)}  (targets p50 ≤ 10 ms, p99 ≤ 30 ms, ≤ 1.5× at ${last.openRuns}; ≤ 150 MB, ≤ 0.2% CPU, ≤ 1 watch per run)`;
}
