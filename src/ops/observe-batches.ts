import type { Logger } from 'pino';
import type { BatchRecord, BatchStatus } from '../core/batch/batch-record.js';
import { readPresentation } from '../slack/presenting/slack-presentation.js';
import type { StateStore } from '../store/state-store.js';
import type { RelayMetrics } from './relay-metrics.js';

type BatchMetrics = Pick<
  RelayMetrics,
  'batchesPosted' | 'batchesAnswered' | 'batchesAnsweredElsewhere' | 'postLatency' | 'submitLatency'
>;

/** Statuses of a batch that waits for people's answer. */
export const WAITING_FOR_ANSWER: readonly BatchStatus[] = ['open', 'held', 'submitting'];

/** What happened to a batch between two versions of its record, as operators count it. */
export type BatchEvent =
  | { kind: 'posted'; record: BatchRecord; latencyMs: number }
  | { kind: 'answered'; record: BatchRecord; latencyMs: number; waitedMs: number }
  | { kind: 'answered-elsewhere'; record: BatchRecord };

/** Whether the batch's channel message exists (Slack accepted it) in this version. */
const isPosted = (record: BatchRecord | undefined): boolean =>
  Boolean(readPresentation(record?.presentation)?.ts);

/** Milliseconds from an ISO time to `at`, never below zero; undefined for no time. */
function since(iso: string | undefined, at: number): number | undefined {
  const from = iso === undefined ? Number.NaN : Date.parse(iso);
  return Number.isNaN(from) ? undefined : Math.max(0, at - from);
}

/**
 * The event a change from `before` to `next`, stored at `at` (ms), stands for, if any:
 * - posted: the batch's first message accepted by Slack, timed from the question file noticed
 *   (`createdAt`);
 * - answered: its answer file published, timed from the Submit click (`answeredAt`), with the
 *   time the agent waited from the file noticed;
 * - answered elsewhere: another provider's answer file found first.
 * A record loaded at start is not a change, so a restart counts nothing twice.
 */
export function batchEventOf(
  before: BatchRecord | undefined,
  next: BatchRecord,
  at: number,
): BatchEvent | undefined {
  if (!isPosted(before) && isPosted(next) && WAITING_FOR_ANSWER.includes(next.status)) {
    const latencyMs = since(next.createdAt, at);
    return latencyMs === undefined ? undefined : { kind: 'posted', record: next, latencyMs };
  }
  if (before?.status === next.status) return undefined;
  if (next.status === 'answered') {
    const latencyMs = since(next.answeredAt, at);
    const waitedMs = since(next.createdAt, at);
    if (latencyMs === undefined || waitedMs === undefined) return undefined;
    return { kind: 'answered', record: next, latencyMs, waitedMs };
  }
  if (next.status === 'answered-elsewhere') return { kind: 'answered-elsewhere', record: next };
  return undefined;
}

export interface ObserveBatchesDeps {
  metrics: BatchMetrics;
  log: Logger;
  /** the clock (ms) latencies end at; the queue's records carry the times they start at */
  now?: () => number;
  /**
   * told of each record that has just reached a decision (answered, cancelled, elsewhere) or
   * whose held decision was undone, with the record before; the change is done once it is
   * (so what people are shown next is in the audit log already)
   */
  decided?: (record: BatchRecord, before: BatchRecord | undefined) => void | Promise<void>;
  /** told of every record stored through this store (other relays' changes: `watch`) */
  stored?: (record: BatchRecord) => void;
}

/** The statuses a batch reaches by a decision, which the audit log records. */
const DECISIONS: readonly BatchStatus[] = ['answered', 'cancelled', 'answered-elsewhere'];

/** Whether the change from `before` to `next` is a decision, or a held one undone. */
const isDecision = (before: BatchRecord | undefined, next: BatchRecord): boolean =>
  before?.status !== next.status &&
  (DECISIONS.includes(next.status) || (before?.status === 'held' && next.status === 'open'));

/**
 * The store, watched: each record stored is compared with the one it replaces, and what
 * operators care about (a batch posted, answered, answered elsewhere) is counted and logged
 * once, with its latency. Every change of a batch goes through the store, which makes it the
 * one place to see them without the queue or the presenter knowing of metrics.
 */
export function observeBatches(store: StateStore, deps: ObserveBatchesDeps): StateStore {
  const { metrics, log } = deps;
  const now = deps.now ?? Date.now;
  const tell = (event: BatchEvent) => {
    const { runDir, seq } = event.record;
    switch (event.kind) {
      case 'posted':
        metrics.batchesPosted.inc();
        metrics.postLatency.observe(event.latencyMs / 1000);
        log.info({ runDir, seq, latencyMs: event.latencyMs }, 'batch posted');
        return;
      case 'answered':
        metrics.batchesAnswered.inc();
        metrics.submitLatency.observe(event.latencyMs / 1000);
        log.info(
          {
            runDir,
            seq,
            by: event.record.answeredBy,
            latencyMs: event.latencyMs,
            waitedMs: event.waitedMs,
          },
          'batch answered',
        );
        return;
      case 'answered-elsewhere':
        metrics.batchesAnsweredElsewhere.inc();
        return;
    }
  };
  return {
    get: (key) => store.get(key),
    forRun: (runDir) => store.forRun(runDir),
    all: () => store.all(),
    async put(record) {
      const before = store.get(record.key);
      const at = now();
      await store.put(record);
      const event = batchEventOf(before, record, at);
      if (event) tell(event);
      deps.stored?.(record);
      if (isDecision(before, record)) await deps.decided?.(record, before);
    },
    async update(key, change) {
      const before = store.get(key);
      const at = now();
      const after = await store.update(key, change);
      const event = after && batchEventOf(before, after, at);
      if (event) tell(event);
      if (after) deps.stored?.(after);
      if (after && isDecision(before, after)) await deps.decided?.(after, before);
      return after;
    },
    watch: (listener) => store.watch(listener),
    forget: (runDir) => store.forget(runDir),
    get notices() {
      return store.notices;
    },
    close: () => store.close(),
  };
}
