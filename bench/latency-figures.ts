import { watch } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { FakeSlack } from '../test/support/fake-slack/index.js';
import {
  hrNow,
  keyOfBlocks,
  okPosts,
  oneTapBatch,
  renameIntoPlace,
  tapOneTap,
  until,
} from './bench-support.js';

export interface LatencySamples {
  /** batch renamed into place → chat.postMessage received */
  toPost: number[];
  /** tap → q-answers file published */
  toAnswer: number[];
}

/**
 * Figures 1 and 2: one run, `count` one-tap batches in a row. Each batch is renamed into place,
 * its message awaited, tapped, its answer file awaited, and its final message update awaited,
 * so every sample starts with the relay idle.
 */
export async function measureLatency(
  slack: FakeSlack,
  runDir: string,
  count: number,
): Promise<LatencySamples> {
  const qa = path.join(runDir, 'qa');
  await mkdir(qa, { recursive: true });
  const published = new Map<string, number>();
  const watcher = watch(qa, (_event, name) => {
    if (name?.startsWith('q-answers-') && !published.has(name)) published.set(name, hrNow());
  });
  const samples: LatencySamples = { toPost: [], toAnswer: [] };
  try {
    for (let seq = 1; seq <= count; seq += 1) {
      const postsBefore = okPosts(slack).length;
      const renamedAt = await renameIntoPlace(runDir, seq, oneTapBatch(seq));
      const post = await until(() => okPosts(slack)[postsBefore], `post of batch ${seq}`);
      samples.toPost.push(post.at - renamedAt);

      const updatesBefore = slack.calls.filter((c) => c.method === 'chat.update').length;
      const name = `q-answers-${String(seq).padStart(3, '0')}.json`;
      const tappedAt = hrNow();
      await tapOneTap(slack, post);
      const writtenAt = await until(() => published.get(name), `answer file ${name}`);
      samples.toAnswer.push(writtenAt - tappedAt);
      await until(
        () => slack.calls.filter((c) => c.method === 'chat.update').length > updatesBefore,
        `final message of batch ${seq}`,
      );
    }
  } finally {
    watcher.close();
  }
  return samples;
}

/**
 * Creates `runs` run folders (numbered from `first`), each with an open first batch, and waits
 * until all are posted. The stand-in's call log is read once, not once per look.
 */
export async function openManyRuns(
  slack: FakeSlack,
  runsRoot: string,
  runs: number,
  first = 0,
): Promise<void> {
  let seen = slack.calls.length;
  let posted = 0;
  for (let i = first; i < first + runs; i += 1) {
    await renameIntoPlace(
      path.join(runsRoot, `open-${String(i).padStart(5, '0')}`),
      1,
      oneTapBatch(1),
    );
  }
  await until(
    () => {
      const calls = slack.calls;
      for (; seen < calls.length; seen += 1) {
        const call = calls[seen];
        if (call?.method === 'chat.postMessage' && (call.response as { ok?: boolean }).ok) {
          posted += 1;
        }
      }
      return posted >= runs || undefined;
    },
    `${runs} open batches posted`,
    600_000,
  );
}

/** Each batch key posted exactly once? Returns the keys posted more than once. */
export function duplicatePosts(slack: FakeSlack): string[] {
  const seen = new Map<string, number>();
  for (const post of okPosts(slack)) {
    const key = keyOfBlocks(post.args.blocks);
    if (key) seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([key]) => key);
}
