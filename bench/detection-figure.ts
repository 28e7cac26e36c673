import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { watch } from 'chokidar';
import { pino } from 'pino';
import { watchRuns } from '../src/fs/watch-runs.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { hrNow, oneTapBatch, renameIntoPlace, until } from './bench-support.js';

type Detector = (runsRoot: string, onSeen: (name: string) => void) => Promise<() => Promise<void>>;

/** The relay's own watcher (file system events, no write-finish delay). */
const relayWatcher: Detector = async (runsRoot, onSeen) => {
  const watcher = watchRuns([runsRoot], (e) => e.type === 'qa-file' && onSeen(e.name), {
    log: pino({ level: 'silent' }),
  });
  await watcher.ready;
  return () => watcher.close();
};

/** A 500 ms polling loop, the terminal UI's fallback. */
const pollingLoop: Detector = async (runsRoot, onSeen) => {
  const timer = setInterval(async () => {
    for (const run of await readdir(runsRoot).catch(() => [])) {
      const qa = path.join(runsRoot, run, 'qa');
      for (const name of await readdir(qa).catch(() => [])) onSeen(name);
    }
  }, 500);
  return async () => clearInterval(timer);
};

/** chokidar with `awaitWriteFinish: true` and its defaults (2 s of stability). */
const awaitWriteFinish: Detector = async (runsRoot, onSeen) => {
  const watcher = watch(runsRoot, { awaitWriteFinish: true, ignoreInitial: true });
  watcher.on('add', (file) => onSeen(path.basename(file)));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return () => watcher.close();
};

export const DETECTORS = { relayWatcher, pollingLoop, awaitWriteFinish } as const;

/** Figure 6: rename into place → detected, for one strategy, `count` times. */
export async function measureDetection(detector: Detector, count: number): Promise<number[]> {
  const { dir, cleanup } = await makeTempDir('o7-bench-detect-');
  const runsRoot = path.join(dir, 'runs');
  const run = path.join(runsRoot, 'run-d');
  await mkdir(path.join(run, 'qa'), { recursive: true });
  const seen = new Map<string, number>();
  const stop = await detector(runsRoot, (name) => {
    if (!seen.has(name)) seen.set(name, hrNow());
  });
  const samples: number[] = [];
  try {
    for (let seq = 1; seq <= count; seq += 1) {
      const name = `q-out-${String(seq).padStart(3, '0')}.json`;
      const at = await renameIntoPlace(run, seq, oneTapBatch(seq));
      const detected = await until(() => seen.get(name), `detection of ${name}`, 30_000);
      if (!existsSync(path.join(run, 'qa', name))) throw new Error('bench: file vanished');
      samples.push(detected - at);
    }
  } finally {
    await stop();
    await cleanup();
  }
  return samples;
}
