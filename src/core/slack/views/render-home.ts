import { basename } from 'node:path';
import type { HeaderBlock, HomeView, KnownBlock } from '@slack/types';
import { mrkdwnContext, mrkdwnSection, plainText } from '../layout/block-builders.js';
import { BLOCK_KIT_LIMITS } from '../layout/block-kit-limits.js';
import { escapeMrkdwn } from '../text/escape-mrkdwn.js';
import { formatAge } from '../text/format-age.js';
import { channelMentionOf, mentionOf } from '../text/mention.js';
import { truncatePlain } from '../text/text-cut.js';

/** The parts of a stored batch record the Home tab shows (a `BatchRecord` fits). */
export interface HomeBatch {
  key: string;
  runDir: string;
  seq: number;
  status: string;
  createdAt: string;
  updatedAt: string;
  answeredAt?: string;
  answeredBy?: string;
  problem?: string;
  /** why Slack will not show the batch (a refusal no retry fixes), and what to do */
  undeliverable?: { code: string; fix: string };
  /** who the batch was last handed to */
  assignee?: string;
  /** who said "I'm on it" */
  claimedBy?: string;
  /** shared mode: the machine holding the run (`RELAY_NODE`) */
  node?: string;
}

/** What the Home tab adds to a record from outside it: the first question and a message link. */
export interface HomeDetails {
  /** the first question's prompt, raw (escaped here) */
  firstQuestion?: string;
  /** the batch message's permalink */
  link?: string;
  /** the channel the batch is (or is to be) posted in */
  channel?: string;
}

/**
 * Which batches the Home tab lists, chosen from every record: only as many open ones as the
 * view has room for, so what is fetched and drawn for it does not grow with the open batches.
 */
export interface HomeSelection<T extends HomeBatch = HomeBatch> {
  /** the open batches listed, oldest first */
  open: T[];
  /** open batches left out for want of room (newer than those listed) */
  moreOpen: number;
  /** how many runs the open batches belong to, all of them */
  openRuns: number;
  /** the latest answered batches, newest first */
  answered: T[];
}

/** Everything the Home tab is drawn from. */
export interface HomeInput extends HomeSelection {
  /** by batch key; a batch without details is shown without question or link */
  details: ReadonlyMap<string, HomeDetails>;
  now: Date;
}

/** Statuses listed as waiting for an answer. */
const OPEN_STATUSES: readonly string[] = ['open', 'held', 'submitting', 'malformed'];
/** Statuses listed as answered. */
const ANSWERED_STATUSES: readonly string[] = ['answered', 'answered-elsewhere'];

/** How many answered batches the Home tab lists, newest first. */
const HOME_ANSWERED_LIMIT = 10;

const RUN_NAME_MAX = 80;
const QUESTION_MAX = 150;
const FIX_MAX = 300;

/** Blocks that are always there: two headers, the summary line, the divider and the footer. */
const FIXED_BLOCKS = 5;

const time = (iso: string | undefined): number => {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(ms) ? 0 : ms;
};
const answeredTime = (batch: HomeBatch): number => time(batch.answeredAt ?? batch.updatedAt);

/** A record with the time it is ordered by, read once. */
interface Timed<T> {
  at: number;
  batch: T;
}

/**
 * Keeps the `limit` first of the records offered, by `before`, in order: one pass, each record
 * compared with the last kept first, so a long list costs little more than reading it.
 */
function firstFew<T extends HomeBatch>(
  limit: number,
  before: (a: Timed<T>, b: Timed<T>) => boolean,
) {
  const kept: Timed<T>[] = [];
  return {
    offer(entry: Timed<T>) {
      if (limit <= 0) return;
      const last = kept[kept.length - 1];
      if (kept.length >= limit && last && !before(entry, last)) return;
      let low = 0;
      let high = kept.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        if (before(entry, kept[mid] as Timed<T>)) high = mid;
        else low = mid + 1;
      }
      kept.splice(low, 0, entry);
      if (kept.length > limit) kept.pop();
    },
    kept: () => kept.map((entry) => entry.batch),
  };
}

const oldestFirst = <T extends HomeBatch>(a: Timed<T>, b: Timed<T>) =>
  a.at < b.at || (a.at === b.at && a.batch.key < b.batch.key);
const newestFirst = <T extends HomeBatch>(a: Timed<T>, b: Timed<T>) =>
  a.at > b.at || (a.at === b.at && a.batch.key < b.batch.key);

/**
 * Which records the Home tab lists: the oldest open batches (as many as fit beside the latest
 * answered ones), and the latest answered ones, newest first. One pass over the records; the
 * edge fetches details (links, questions) for these only.
 */
export function selectHomeBatches<T extends HomeBatch>(records: Iterable<T>): HomeSelection<T> {
  // the most open rows there can be room for: beside one block for the answered part
  const open = firstFew<T>(BLOCK_KIT_LIMITS.modalBlocks - FIXED_BLOCKS - 1, oldestFirst);
  const answered = firstFew<T>(HOME_ANSWERED_LIMIT, newestFirst);
  const runs = new Set<string>();
  let openCount = 0;
  for (const batch of records) {
    if (OPEN_STATUSES.includes(batch.status)) {
      openCount += 1;
      runs.add(batch.runDir);
      open.offer({ at: time(batch.createdAt), batch });
    } else if (ANSWERED_STATUSES.includes(batch.status)) {
      answered.offer({ at: answeredTime(batch), batch });
    }
  }
  const latest = answered.kept();
  // the answered part takes one block even when empty ("Nothing answered yet.")
  const fits = BLOCK_KIT_LIMITS.modalBlocks - FIXED_BLOCKS - Math.max(1, latest.length);
  const oldest = open.kept();
  const shown = openCount <= fits ? oldest : oldest.slice(0, fits - 1);
  return { open: shown, moreOpen: openCount - shown.length, openRuns: runs.size, answered: latest };
}

/**
 * The App Home tab: batches waiting for an answer across all runs (oldest first, with run,
 * first question, age and a link to the message), then the latest answered ones with who
 * answered and when. When the batches listed are in more than one channel, each names its
 * channel. Ages are relative to `now`; the view stays within 100 blocks however many batches
 * are open.
 */
export function renderHome(input: HomeInput): HomeView {
  const { now, open, answered, moreOpen } = input;
  const channels = new Set(
    [...open, ...answered].map((b) => input.details.get(b.key)?.channel).filter(Boolean),
  );
  const detailsOf = (batch: HomeBatch): HomeDetails => {
    const details = input.details.get(batch.key) ?? {};
    // one channel needs no naming
    if (channels.size > 1 || details.channel === undefined) return details;
    const { channel: _, ...rest } = details;
    return rest;
  };

  const answeredBlocks: KnownBlock[] =
    answered.length === 0
      ? [mrkdwnContext('Nothing answered yet.')]
      : answered.map((b) => mrkdwnSection(answeredLine(b, detailsOf(b), now)));

  const openBlocks: KnownBlock[] = open.map((b) => mrkdwnSection(openLine(b, detailsOf(b), now)));
  if (moreOpen > 0) {
    const where = channels.size > 1 ? 'in their channels' : 'in the channel';
    openBlocks.push(
      mrkdwnContext(`…and ${moreOpen} more, newer than these. Their messages are ${where}.`),
    );
  }

  const openCount = open.length + moreOpen;
  const summary =
    openCount === 0
      ? 'Nothing is waiting for an answer.'
      : `${count(openCount, 'batch', 'batches')} from ${count(input.openRuns, 'run', 'runs')} waiting, oldest first.`;
  const unix = Math.floor(now.getTime() / 1000);
  return {
    type: 'home',
    blocks: [
      header('Waiting for an answer'),
      mrkdwnContext(summary),
      ...openBlocks,
      { type: 'divider' },
      header('Recently answered'),
      ...answeredBlocks,
      mrkdwnContext(
        `Ages as of <!date^${unix}^{date_short_pretty} {time}|${now.toISOString()}>; the list updates when a batch changes.`,
      ),
    ],
  };
}

function header(text: string): HeaderBlock {
  return { type: 'header', text: plainText(text, BLOCK_KIT_LIMITS.headerText) };
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "*run-name* · batch 3", escaped, "in #channel" when the details name one, and "· on node" in shared mode. */
function title(batch: HomeBatch, details: HomeDetails): string {
  const run = truncatePlain(basename(batch.runDir) || batch.runDir, RUN_NAME_MAX);
  const channel = details.channel ? ` in ${channelMentionOf(details.channel)}` : '';
  const node = batch.node ? ` · on ${escapeMrkdwn(batch.node)}` : '';
  return `*${escapeMrkdwn(run)}* · batch ${batch.seq}${channel}${node}`;
}

function linkPart(details: HomeDetails): string {
  return details.link ? ` · <${escapeMrkdwn(details.link)}|Open message>` : '';
}

function questionPart(details: HomeDetails): string {
  if (details.firstQuestion === undefined) return '';
  const oneLine = details.firstQuestion.replace(/\s+/g, ' ').trim();
  return oneLine === '' ? '' : `\n>${escapeMrkdwn(truncatePlain(oneLine, QUESTION_MAX))}`;
}

function openLine(batch: HomeBatch, details: HomeDetails, now: Date): string {
  const age = formatAge(new Date(time(batch.createdAt)), now);
  const state =
    batch.status === 'submitting'
      ? 'answers being written'
      : batch.status === 'held'
        ? 'answered; sent to the agent in a moment unless undone'
        : batch.status === 'malformed'
          ? `question file is malformed, waiting ${age}`
          : batch.undeliverable
            ? `:warning: not shown in Slack (${escapeMrkdwn(batch.undeliverable.code)}), waiting ${age}: ${escapeMrkdwn(truncatePlain(batch.undeliverable.fix, FIX_MAX))}`
            : batch.problem
              ? `waiting ${age}; the answers could not be written, press Submit again`
              : `waiting ${age}`;
  const owner = batch.assignee
    ? ` · assigned to ${mention(batch.assignee)}`
    : batch.claimedBy
      ? ` · ${mention(batch.claimedBy)} is on it`
      : '';
  return `${title(batch, details)} · ${state}${owner}${linkPart(details)}${questionPart(details)}`;
}

function answeredLine(batch: HomeBatch, details: HomeDetails, now: Date): string {
  const ago = `${formatAge(new Date(answeredTime(batch)), now)} ago`;
  const who =
    batch.status === 'answered-elsewhere'
      ? 'answered in another tool'
      : `answered by ${mention(batch.answeredBy)}`;
  return `${title(batch, details)} · ${who} ${ago}${linkPart(details)}${questionPart(details)}`;
}

/** A user mention for a Slack user id; anything else is shown as escaped text. */
function mention(userId: string | undefined): string {
  return userId ? mentionOf(userId) : 'someone';
}
