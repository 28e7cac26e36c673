import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FakeSlack } from '../test/support/fake-slack/index.js';
import {
  CHANNEL,
  keyOfBlocks,
  okPosts,
  oneTapBatch,
  renameIntoPlace,
  USER,
  until,
} from './bench-support.js';
import { duplicatePosts } from './latency-figures.js';

export interface BurstResult {
  batches: number;
  posted: number;
  duplicates: number;
  answerFiles: number;
  rateLimited: number;
  unavailable: number;
  seconds: number;
}

/**
 * Figure 5: `runs` runs each write `perRun` batches at once. Every posted batch is tapped as
 * soon as it appears; the stand-in answers some posts with 429 (Retry-After 1) and some with
 * 503, spread over the burst.
 */
export async function measureBurst(
  slack: FakeSlack,
  runsRoot: string,
  runs: number,
  perRun: number,
  faults: { rateLimited: number; unavailable: number },
): Promise<BurstResult> {
  const total = runs * perRun;
  const startedAt = Date.now();
  const dirs = Array.from({ length: runs }, (_, i) =>
    path.join(runsRoot, `burst-${String(i).padStart(4, '0')}`),
  );
  const firstPost = okPosts(slack).length;
  for (let seq = 1; seq <= perRun; seq += 1) {
    for (const dir of dirs) await renameIntoPlace(dir, seq, oneTapBatch(seq));
  }
  const plan = [
    ...Array.from({ length: faults.rateLimited }, () => ({ status: 429 as const, retryAfter: 1 })),
    ...Array.from({ length: faults.unavailable }, () => ({ status: 503 as const })),
  ];
  const every = Math.max(1, Math.floor(total / (plan.length + 1)));
  const tapped = new Set<string>();
  let injected = 0;
  await until(
    () => {
      const posts = okPosts(slack).slice(firstPost);
      // Spread the faults: one more each time `every` further posts have gone through.
      while (injected < plan.length && posts.length >= injected * every) {
        slack.failNext('chat.postMessage', plan[injected] as never);
        injected += 1;
      }
      for (const post of posts) {
        const ts = String((post.response as { ts?: string }).ts);
        if (tapped.has(ts)) continue;
        tapped.add(ts);
        const blocks =
          (post.args.blocks as { block_id?: string; elements?: { action_id?: string }[] }[]) ?? [];
        const tap = blocks
          .flatMap((b) => (b.elements ?? []).map((e) => ({ blockId: String(b.block_id), ...e })))
          .find((e) => e.action_id?.startsWith('o7.one-tap'));
        if (tap?.action_id) {
          void slack.clickButton({
            channel: CHANNEL,
            ts,
            blockId: tap.blockId,
            actionId: tap.action_id,
            user: USER,
          });
        }
      }
      return posts.length >= total && tapped.size >= total ? true : undefined;
    },
    'burst posted',
    900_000,
  );
  let answerFiles = 0;
  for (;;) {
    answerFiles = 0;
    for (const dir of dirs) {
      answerFiles += (await readdir(path.join(dir, 'qa'))).filter((n) =>
        n.startsWith('q-answers-'),
      ).length;
    }
    if (answerFiles >= total || Date.now() - startedAt > 900_000) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const seconds = (Date.now() - startedAt) / 1000;
  const burstKeys = new Set(
    okPosts(slack)
      .slice(firstPost)
      .map((p) => keyOfBlocks(p.args.blocks)),
  );
  const failed = slack.calls.filter((c) => c.method === 'chat.postMessage' && c.status !== 200);
  return {
    batches: total,
    posted: burstKeys.size,
    duplicates: duplicatePosts(slack).length,
    answerFiles,
    rateLimited: failed.filter((c) => c.status === 429).length,
    unavailable: failed.filter((c) => c.status === 503).length,
    seconds,
  };
}
