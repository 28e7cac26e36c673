import { availableParallelism, cpus } from 'node:os';
import { createClient } from '@redis/client';
import { withIdValue } from '../src/core/protocol/questions/id-record.js';
import type { Answer } from '../src/core/protocol/questions/question.js';
import type { StateStore } from '../src/store/state-store.js';
import { makeRecord } from '../test/support/make-record.js';
import { startRedisServer } from '../test/support/redis-server.js';
import { openTestRedisStore } from '../test/support/redis-store.js';
import { percentile } from './bench-support.js';

/**
 * The cost of the Redis store's round trips on loopback, against a real redis-server (AOF off,
 * as the figure is about the store, not the disk): `npx tsx bench/redis-store-figures.ts`.
 * Sizes shrink with BENCH_SCALE=0.1.
 */
async function main() {
  const scale = Number(process.env.BENCH_SCALE ?? '1');
  const n = (full: number) => Math.max(10, Math.round(full * scale));
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const fmt = (value: number) => `${value.toFixed(3)} ms`;
  const spread = (values: number[]) =>
    `p50 ${fmt(percentile(values, 50))}, p99 ${fmt(percentile(values, 99))}`;
  say(
    `machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), Node ${process.version}`,
  );

  const server = await startRedisServer();
  const a = await openTestRedisStore({ url: server.url, node: 'a', namespace: 'bench' });
  const b = await openTestRedisStore({ url: server.url, node: 'b', namespace: 'bench' });
  // counts script calls; never reconnects, so a failed run ends instead of hanging
  const admin = createClient({ url: server.url, socket: { reconnectStrategy: false } });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    const record = makeRecord('/bench/run', 1, { drafts: { q0: 'x'.repeat(200) } });
    await a.put(record);
    await until(() => b.get(record.key) !== undefined);
    const draft = (store: StateStore, i: number) =>
      store.update(record.key, (current) => ({
        ...current,
        drafts: withIdValue<Answer>(current.drafts, `q${i % 20}`, `answer ${i}`),
      }));

    // warm up the script cache and the JIT
    for (let i = 0; i < 200; i += 1) await draft(a, i);

    const samples = n(2000);
    const own = await timed(samples, (i) => draft(a, i));
    say(`update on the relay that wrote last, ${samples} in a row: ${spread(own)}`);

    // alternate relays: each update meets a record the other relay just changed
    const alternating = await timed(samples, (i) => draft(i % 2 === 0 ? a : b, i));
    say(`update alternating between two relays, ${samples}: ${spread(alternating)}`);

    const puts = await timed(samples, (i) =>
      a.put(makeRecord('/bench/puts', (i % 50) + 1, { drafts: { q: `answer ${i}` } })),
    );
    say(`put, ${samples}: ${spread(puts)}`);

    const seen: number[] = [];
    for (let i = 0; i < n(500); i += 1) {
      const started = performance.now();
      const mark = `seen-${i}`;
      await a.update(record.key, (current) => ({ ...current, updatedAt: mark }));
      await until(() => b.get(record.key)?.updatedAt === mark);
      seen.push(performance.now() - started);
    }
    say(`update on one relay until the other relay's copy has it, ${seen.length}: ${spread(seen)}`);

    const before = await evalCalls(admin);
    const each = n(200);
    const burstStarted = performance.now();
    await Promise.all(
      Array.from({ length: each }, (_, i) => [draft(a, i), draft(b, i + each)]).flat(),
    );
    const burstMs = performance.now() - burstStarted;
    const scripts = (await evalCalls(admin)) - before;
    say(
      `${2 * each} updates of one batch at once from two relays: ${burstMs.toFixed(0)} ms in all, ${scripts} script calls (${scripts - 2 * each} conflicts redone)`,
    );

    const many = n(10_000);
    const writes: Promise<void>[] = [];
    for (let i = 0; i < many; i += 1) {
      writes.push(
        a.put(
          makeRecord(`/bench/many/run-${Math.floor(i / 10)}`, (i % 10) + 1, {
            drafts: { q: 'x'.repeat(300) },
          }),
        ),
      );
    }
    await Promise.all(writes);
    const openStarted = performance.now();
    const c = await openTestRedisStore({ url: server.url, node: 'c', namespace: 'bench' });
    const openMs = performance.now() - openStarted;
    say(`a relay starting on ${c.all().length} records loads them in ${openMs.toFixed(0)} ms`);
    await c.close();
  } finally {
    admin.destroy();
    await Promise.all([a.close(), b.close()]);
    await server.dispose();
  }
}

async function timed(count: number, run: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  return times;
}

async function evalCalls(admin: { info(section: string): Promise<string> }): Promise<number> {
  const stats = await admin.info('commandstats');
  return [...stats.matchAll(/cmdstat_eval(?:sha)?:calls=(\d+)/g)].reduce(
    (sum, match) => sum + Number(match[1]),
    0,
  );
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await tick();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
