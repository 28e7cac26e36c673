import type { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import type { BatchRecord, BatchStatus } from '../../core/batch/batch-record.js';
import { type DigestItem, digestItemOf, oldestFirst } from '../../core/digest/digest-item.js';
import { renderDigest } from '../../core/digest/render-digest.js';
import type { QuestionBatch } from '../../core/protocol/questions/question.js';
import { slackErrorCode } from '../presenting/slack-errors.js';
import { readPresentation } from '../presenting/slack-presentation.js';
import type { DigestMessages } from './digest-messages.js';

type WebClient = webApi.WebClient;

/** Least time between two changes of one channel's digest. */
const DIGEST_EVERY_MS = 1000;

/**
 * How many batch messages may be posted below the digest before a newcomer to it moves it to
 * the bottom (posted again, the old one deleted): below that it is edited in place.
 */
export const DIGEST_REPOST_AFTER = 10;

/** Longest wait before a digest Slack refused to show is tried again. */
const RETRY_MOST_MS = 60_000;

/** The batches a digest lists: waiting ones, and those whose answer is held for Undo. */
const LISTED: readonly BatchStatus[] = ['open', 'held'];

/**
 * Keeps one digest message per channel listing its open quick batches (`core/digest`), while
 * there are at least `at` of them: posted, then edited in place at most once a second, moved
 * to the bottom when it has scrolled far up and a batch joins it, deleted when fewer remain.
 */
export interface DigestKeeper {
  /** Brings the digest of `channel` in line within a second. */
  touch(channel: string): void;
  /**
   * Brings every channel's digest in line: at start, for what changed while the relay was
   * down, and in shared mode when this relay becomes the keeper.
   */
  start(): void;
  /** In shared mode: another relay keeps the digests now, so what this one showed may be stale. */
  forget(): void;
  /** A record was stored, here or by another relay: brings its channel's digest in line. */
  stored(record: BatchRecord): void;
  /** Whether `ts` in `channel` is the digest message the relay keeps there. */
  isDigest(channel: string, ts: string): Promise<boolean>;
  /** The open quick batches of `channel`, oldest first, as the digest lists them. */
  items(channel: string): Promise<DigestItem[]>;
  /** Stops its timers; waits for a change under way. */
  close(): Promise<void>;
}

export interface DigestKeeperDeps {
  client: WebClient;
  /** every record this relay shows */
  records: () => Iterable<BatchRecord>;
  /** a record's questions, when they can be read */
  batchOf: (record: BatchRecord) => Promise<QuestionBatch | undefined>;
  /** `RELAY_DIGEST_AT`: fewest quick batches a channel's digest lists */
  at: number;
  /** where each channel's digest message is kept, across restarts */
  messages: DigestMessages;
  log: Logger;
  /** least time between two changes of one digest (1 s) */
  everyMs?: number;
  /** Whether this relay keeps the digests now (shared mode: one relay at a time); default yes. */
  keeps?: () => boolean;
}

/** The digest keeper (see {@link DigestKeeper}). */
export function createDigestKeeper(deps: DigestKeeperDeps): DigestKeeper {
  const { client, messages, log } = deps;
  const everyMs = deps.everyMs ?? DIGEST_EVERY_MS;
  const timers = new Map<string, NodeJS.Timeout>();
  const lastRun = new Map<string, number>();
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  const shownAs = new Map<string, string>();
  const failures = new Map<string, number>();
  let closed = false;

  const channelOf = (record: BatchRecord) => {
    const shown = readPresentation(record.presentation);
    return shown?.ts ? shown.channel : undefined;
  };

  async function items(channel: string): Promise<DigestItem[]> {
    const listed = [...deps.records()].filter(
      (record) => LISTED.includes(record.status) && channelOf(record) === channel,
    );
    // at once: in shared mode another machine's questions may be read from Redis
    const found = await Promise.all(
      listed.map(async (record) => {
        const batch = await deps.batchOf(record);
        return batch && digestItemOf(record, batch);
      }),
    );
    return found.filter((item): item is DigestItem => Boolean(item)).sort(oldestFirst);
  }

  /** Batch messages posted in `channel` after `ts`: how far up the digest has scrolled. */
  function postedBelow(channel: string, ts: string): number {
    let count = 0;
    for (const record of deps.records()) {
      const shown = readPresentation(record.presentation);
      if (shown?.channel === channel && Number(shown.ts) > Number(ts)) count += 1;
    }
    return count;
  }

  async function remove(channel: string, ts: string) {
    try {
      await client.chat.delete({ channel, ts });
    } catch (err) {
      if (slackErrorCode(err) !== 'message_not_found') throw err;
    }
  }

  async function refresh(channel: string) {
    if (deps.keeps && !deps.keeps()) return;
    const listed = await items(channel);
    const held = await messages.get(channel);
    if (deps.at === 0 || listed.length < deps.at) {
      if (!held) return;
      await remove(channel, held.ts);
      shownAs.delete(channel);
      await messages.set(channel, undefined);
      log.info({ channel, waiting: listed.length }, 'digest removed: too few quick batches');
      return;
    }
    const { text, blocks } = renderDigest(listed);
    const signature = JSON.stringify(blocks);
    const keys = listed.map((item) => item.key);
    if (held && shownAs.get(channel) === signature) return;
    const newcomer = held !== undefined && keys.some((key) => !held.keys.includes(key));
    if (held && !(newcomer && postedBelow(channel, held.ts) >= DIGEST_REPOST_AFTER)) {
      try {
        await client.chat.update({ channel, ts: held.ts, text, blocks });
        shownAs.set(channel, signature);
        await messages.set(channel, { ts: held.ts, keys });
        return;
      } catch (err) {
        // someone deleted it: it is posted again below
        if (slackErrorCode(err) !== 'message_not_found') throw err;
      }
    }
    const posted = await client.chat.postMessage({ channel, text, blocks });
    if (!posted.ts) throw new Error('chat.postMessage gave no ts for the digest');
    shownAs.set(channel, signature);
    await messages.set(channel, { ts: posted.ts, keys });
    log.info({ channel, waiting: listed.length, ts: posted.ts }, 'digest posted');
    if (held) await remove(channel, held.ts);
  }

  function run(channel: string) {
    timers.delete(channel);
    lastRun.set(channel, Date.now());
    const work = refresh(channel)
      .then(() => {
        failures.delete(channel);
      })
      .catch((err: unknown) => {
        const count = (failures.get(channel) ?? 0) + 1;
        failures.set(channel, count);
        const retryInMs = Math.min(everyMs * 2 ** count, RETRY_MOST_MS);
        const fields = { err, channel, code: slackErrorCode(err), retryInMs, failures: count };
        const message = 'could not bring the digest in line; trying again';
        if (count === 1) log.warn(fields, message);
        else log.debug(fields, message);
        if (!closed)
          timers.set(
            channel,
            setTimeout(() => run(channel), retryInMs),
          );
      })
      .finally(() => {
        running.delete(channel);
        if (again.delete(channel)) touch(channel);
      });
    running.set(channel, work);
  }

  function touch(channel: string) {
    // another relay keeps them (shared mode); this one starts over when it takes over
    if (closed || timers.has(channel) || (deps.keeps && !deps.keeps())) return;
    if (running.has(channel)) {
      again.add(channel);
      return;
    }
    const wait = Math.max(0, (lastRun.get(channel) ?? 0) + everyMs - Date.now());
    timers.set(
      channel,
      setTimeout(() => run(channel), wait),
    );
  }

  return {
    touch,

    start() {
      messages.channels().then(
        (kept) => {
          const channels = new Set(kept);
          for (const record of deps.records()) {
            const channel = channelOf(record);
            if (channel && LISTED.includes(record.status)) channels.add(channel);
          }
          for (const channel of channels) touch(channel);
        },
        (err: unknown) => log.warn({ err }, 'could not list the digests to bring them in line'),
      );
    },

    forget: () => shownAs.clear(),

    stored(record) {
      const channel = channelOf(record);
      if (channel) touch(channel);
    },

    isDigest: async (channel, ts) => (await messages.get(channel))?.ts === ts,

    items,

    async close() {
      closed = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...running.values()]);
    },
  };
}
