import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startFakeSlack } from '../test/support/fake-slack/index.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import {
  hrNow,
  okPosts,
  oneTapBatch,
  renameIntoPlace,
  startRelay,
  until,
} from './bench-support.js';

/** Writes `runs` runs of `perRun` batches that are all answered already. */
async function writeAnsweredRuns(runsRoot: string, runs: number, perRun: number): Promise<void> {
  for (let r = 0; r < runs; r += 1) {
    const qa = path.join(runsRoot, `done-${String(r).padStart(5, '0')}`, 'qa');
    await mkdir(qa, { recursive: true });
    for (let seq = 1; seq <= perRun; seq += 1) {
      const batch = oneTapBatch(seq);
      const nnn = String(seq).padStart(3, '0');
      await writeFile(path.join(qa, `q-out-${nnn}.json`), JSON.stringify(batch));
      const answers = {
        seq,
        answers: [{ id: 'go', type: 'yes-no', prompt: batch.questions[0]?.prompt, answer: true }],
        questions: batch.questions,
      };
      await writeFile(path.join(qa, `q-answers-${nnn}.json`), JSON.stringify(answers));
    }
  }
}

/**
 * Figure 4: from spawning the relay to the first new batch posted, with nothing else on disk
 * and with `answeredRuns` × `perRun` answered batches beside it, and the CPU time the relay
 * used until then (user + system: on a shared machine it moves less than the wall time).
 * Medians of `repeats` starts; the runs are written once, and each start gets a new state
 * folder and a new run.
 */
export async function measureStartup(
  answeredRuns: number,
  perRun: number,
  repeats: number,
): Promise<{ ms: number; cpuMs: number }> {
  const times: number[] = [];
  const cpu: number[] = [];
  const { dir, cleanup } = await makeTempDir('o7-bench-start-');
  const runsRoot = path.join(dir, 'runs');
  await mkdir(runsRoot, { recursive: true });
  if (answeredRuns > 0) {
    await writeAnsweredRuns(runsRoot, answeredRuns, perRun);
    // the files written just now are flushed first: a relay restarts over runs written long
    // before, not while the disk is still writing 100,000 of them out (which it then waits on)
    try {
      execFileSync('sync');
    } catch {
      // no sync(1) here: the first start may wait on the disk
    }
  }
  try {
    for (let i = 0; i < repeats; i += 1) {
      const slack = await startFakeSlack({ now: hrNow });
      await rm(path.join(dir, 'state'), { recursive: true, force: true });
      await rm(path.join(runsRoot, `new-run-${i - 1}`), { recursive: true, force: true });
      await renameIntoPlace(path.join(runsRoot, `new-run-${i}`), 1, oneTapBatch(1));
      const relay = startRelay(slack, dir);
      const post = await until(() => okPosts(slack)[0], 'first post', 120_000);
      times.push(post.at - relay.startedAt);
      cpu.push((await relay.cpuSeconds()) * 1000);
      await relay.stop();
      await slack.close();
    }
  } finally {
    await cleanup();
  }
  const median = (values: number[]) =>
    values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  return { ms: median(times), cpuMs: median(cpu) };
}
