import { sharedLines } from './shared-figure.js';

/**
 * Figure 8 of `npm run bench` alone (shared mode, about a minute and a half):
 * `npm run --silent build && node dist/bench/run-shared-bench.js`. Sizes shrink with
 * BENCH_SCALE=0.1, as in the whole bench.
 */
const scale = Number(process.env.BENCH_SCALE ?? '1');
const n = (full: number, min: number) => Math.max(min, Math.round(full * scale));
sharedLines({ samples: n(200, 20), burst: n(500, 30) }).then(
  (lines) => {
    for (const line of lines) process.stdout.write(`${line}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
