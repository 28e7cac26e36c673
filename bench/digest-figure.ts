import { access, mkdir, open, rename } from 'node:fs/promises';
import path from 'node:path';
import { startFakeSlack } from '../test/support/fake-slack/index.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import {
  CHANNEL,
  hrNow,
  ms,
  okPosts,
  oneTapBatch,
  percentile,
  renameIntoPlace,
  socketConnected,
  startRelay,
  tapOneTap,
  USER,
  until,
} from './bench-support.js';

/** One round of figure 13: 30 quick batches answered through the digest's Approve all. */
export interface DigestSample {
  /** taps from the digest to every answer file: Approve all, then Confirm */
  taps: number;
  /** Confirm pressed → the 30th answer file in place */
  confirmMs: number;
  /** one tap on one batch's own message → its answer file in place, in the same run */
  oneSubmitMs: number;
  /** the floor: 30 files written and fsynced one after another by the simplest code */
  floorMs: number;
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/** Waits (polling every millisecond) until every file exists. */
async function allThere(files: readonly string[]): Promise<void> {
  for (const file of files)
    while (!(await exists(file))) await new Promise((r) => setTimeout(r, 1));
}

/** The simplest durable write of `count` small files: temp, fsync, rename, fsync the folder. */
async function floorWrites(dir: string, count: number): Promise<number> {
  await mkdir(dir, { recursive: true });
  const started = hrNow();
  for (let i = 0; i < count; i += 1) {
    const temp = path.join(dir, `.f${i}.tmp`);
    const handle = await open(temp, 'w');
    await handle.writeFile('{"seq":1,"answers":[]}');
    await handle.sync();
    await handle.close();
    await rename(temp, path.join(dir, `f${i}.json`));
    const folder = await open(dir, 'r');
    await folder.sync();
    await folder.close();
  }
  return hrNow() - started;
}

/**
 * Figure 13: `rounds` rounds of 30 runs, each with a yes-no batch, answered with the digest's
 * Approve all and its form's Confirm, against the real relay over Socket Mode. Beside it, in
 * the same run, one Submit (a one-tap answer on a batch's own message) and the floor.
 */
export async function measureDigest(rounds: number, count = 30): Promise<DigestSample[]> {
  const slack = await startFakeSlack({ now: hrNow });
  const { dir, cleanup } = await makeTempDir('o7-bench-digest-');
  await mkdir(path.join(dir, 'runs'));
  // the write path is measured: Undo's window (RELAY_UNDO_SECONDS) adds exactly its length
  const relay = startRelay(slack, dir, { RELAY_DIGEST_AT: '4', RELAY_UNDO_SECONDS: '0' });
  const samples: DigestSample[] = [];
  try {
    await socketConnected(slack);
    for (let round = 0; round < rounds; round += 1) {
      const runs = Array.from({ length: count }, (_, i) =>
        path.join(dir, 'runs', `r${round}-${String(i).padStart(2, '0')}`),
      );
      for (const run of runs) await renameIntoPlace(run, 1, oneTapBatch(1));
      const text = `${count} agents are waiting for a quick answer`;
      const digest = await until(
        () => slack.messages(CHANNEL).find((m) => m.text === text),
        'the digest of the round',
      );
      let taps = 0;
      const approve = await slack.clickButton({
        channel: CHANNEL,
        ts: digest.ts,
        blockId: 'o7.digest.foot',
        actionId: 'o7.digest-approve-all',
        user: USER,
      });
      taps += 1;
      const trigger = approve.payload.trigger_id;
      await until(
        () => slack.calls.find((c) => c.method === 'views.open' && c.args.trigger_id === trigger),
        'the Approve all form',
      );
      const form = slack.views(USER).at(-1);
      if (!form) throw new Error('bench: no Approve all form');
      const files = runs.map((run) => path.join(run, 'qa', 'q-answers-001.json'));
      const confirmed = hrNow();
      await slack.submitView({ viewId: String(form.id), user: USER });
      taps += 1;
      await allThere(files);
      const confirmMs = hrNow() - confirmed;
      // one Submit on a batch's own message, in the same run
      const single = path.join(dir, 'runs', `single-${round}`);
      const before = okPosts(slack).length;
      await renameIntoPlace(single, 1, oneTapBatch(1));
      const post = await until(() => okPosts(slack)[before], 'the single batch posted');
      const tapped = hrNow();
      await tapOneTap(slack, post);
      await allThere([path.join(single, 'qa', 'q-answers-001.json')]);
      const oneSubmitMs = hrNow() - tapped;
      const floorMs = await floorWrites(path.join(dir, `floor-${round}`), count);
      samples.push({ taps, confirmMs, oneSubmitMs, floorMs });
      // the digest goes once the round is answered; the next round posts a new one
      await until(
        () => !slack.messages(CHANNEL).some((m) => m.text.includes('quick answer')) || undefined,
        'the digest removed',
      );
    }
  } finally {
    await relay.stop();
    await slack.close();
    await cleanup();
  }
  return samples;
}

/** The figure's lines. */
export function digestLines(samples: readonly DigestSample[], count = 30): string[] {
  const p50 = (pick: (s: DigestSample) => number) => percentile(samples.map(pick), 50);
  const confirm = p50((s) => s.confirmMs);
  const single = p50((s) => s.oneSubmitMs);
  const floor = p50((s) => s.floorMs);
  return [
    `Figure 13: ${count} quick batches answered from the digest (${samples.length} rounds, p50)`,
    `  taps from the digest to ${count} answer files: ${samples[0]?.taps ?? 0} (Approve all, Confirm)`,
    `  Confirm → ${count} answer files in place: ${ms(confirm)} (${ms(confirm / count)} a batch)`,
    `  one Submit on its own message → its file: ${ms(single)}; ${count} Submits would be ${ms(single * count)} and ${count} taps`,
    `  floor, ${count} files written and fsynced one after another: ${ms(floor)} (Confirm is ${(confirm / floor).toFixed(1)}× it)`,
  ];
}
