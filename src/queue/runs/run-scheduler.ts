import type { Logger } from 'pino';
import { createKeyedLock } from '../../store/keyed-lock.js';

/** Back-off of a run that keeps failing: first wait, doubling up to the longest. */
const BACK_OFF_DEFAULTS = { retryBaseMs: 1000, retryMostMs: 60_000 } as const;

export interface RunSchedulerDeps {
  /** Brings one run in line with its folder; never called twice at once for the same run. */
  sync: (runDir: string) => Promise<void>;
  log: Logger;
  /** How many runs are synced at once. */
  concurrency?: number;
  /** First delay before a failed run is tried again; doubles up to `retryMostMs` (1 s). */
  retryBaseMs?: number;
  /** Longest delay between attempts for a run that keeps failing (a minute). */
  retryMostMs?: number;
  /**
   * How long `close` waits for syncs under way. A sync can be stuck retrying an unreachable
   * Slack; stopping must not wait for that, and whatever it did not finish is redone at start.
   */
  closeGraceMs?: number;
}

/** When runs are synced: one sync at a time per run, a few runs at once, retries. */
export interface RunScheduler {
  /** Whether `start` was called. */
  readonly started: boolean;
  /** Marks a run for a sync; before `start` runs are only collected. */
  schedule(runDir: string): void;
  /** Schedules a sync of the run in `ms`. */
  later(ms: number, runDir: string): void;
  /** The delay before the next attempt for a run that failed again. */
  backOff(runDir: string): number;
  /** Whether the run is being synced or waits for its turn. */
  busy(runDir: string): boolean;
  /** Whether any run is being synced or waits for its turn. */
  working(): boolean;
  /** The run's work went through: its next failure starts the back-off over. */
  succeeded(runDir: string): void;
  /** Runs `task` when no sync or other task of the same run is running. */
  exclusive<T>(runDir: string, task: () => Promise<T>): Promise<T>;
  /**
   * Starts syncing the runs collected so far and `more`; returns them in the order due.
   * `beforeSyncs` gets that order before any of them starts (to get ready for them).
   */
  start(more: Iterable<string>, beforeSyncs?: (order: readonly string[]) => void): string[];
  /** Resolves when no run is being synced and none is waiting (timers aside). */
  idle(): Promise<void>;
  /** Stops timers and further syncs; waits for syncs under way, at most `closeGraceMs`. */
  close(): Promise<void>;
}

/**
 * When and how runs are synced: one sync at a time per run (a hint during a sync asks for one
 * more after it; the hints that come while it waits for its turn are all served by it), a few
 * runs at once, retries with a growing back-off, and a stop that does not wait for ever.
 * Knows nothing of what a sync does.
 */
export function createRunScheduler(deps: RunSchedulerDeps): RunScheduler {
  const { sync, log } = deps;
  const retryBaseMs = deps.retryBaseMs ?? BACK_OFF_DEFAULTS.retryBaseMs;
  const retryMostMs = deps.retryMostMs ?? BACK_OFF_DEFAULTS.retryMostMs;
  const closeGraceMs = deps.closeGraceMs ?? 5000;
  const concurrency = deps.concurrency ?? 8;
  const lock = createKeyedLock();
  /** Runs being synced, each with whether a hint came during its sync (one more is due). */
  const running = new Map<string, { again: boolean }>();
  /**
   * Runs waiting for a turn, in the order they were marked. Only names wait: at start that
   * is every run on disk, and a promise each would be thousands held at once.
   */
  const queued = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const attempts = new Map<string, number>();
  const pending = new Set<string>();
  /** Runs whose last sync failed: their first failure is an error line, the retries debug. */
  const failing = new Set<string>();
  let started = false;
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  function settleIdle() {
    if (running.size > 0 || queued.size > 0 || pending.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function whenIdle(): Promise<void> {
    return new Promise((resolve) => {
      idleWaiters.push(resolve);
      settleIdle();
    });
  }

  function schedule(runDir: string) {
    if (closed) return;
    if (!started) {
      pending.add(runDir);
      return;
    }
    const state = running.get(runDir);
    if (state) {
      state.again = true;
      return;
    }
    queued.add(runDir);
    takeTurns();
  }

  /** Starts the runs waiting longest, while fewer than `concurrency` are being synced. */
  function takeTurns() {
    for (const runDir of queued) {
      if (closed || running.size >= concurrency) return;
      queued.delete(runDir);
      void syncOnce(runDir);
    }
  }

  /** One sync of the run; a hint during it queues the run again, behind the others. */
  async function syncOnce(runDir: string) {
    const state = { again: false };
    running.set(runDir, state);
    try {
      await lock.run(runDir, () => sync(runDir));
      failing.delete(runDir);
    } catch (err) {
      if (closed) {
        log.debug({ err, runDir }, 'sync ended by stopping');
      } else {
        const retryInMs = backOff(runDir);
        const message = 'could not sync run; will try again';
        if (failing.has(runDir)) log.debug({ err, runDir, retryInMs }, message);
        else log.error({ err, runDir, retryInMs }, message);
        failing.add(runDir);
        later(retryInMs, runDir);
      }
    }
    running.delete(runDir);
    if (state.again && !closed) queued.add(runDir);
    takeTurns();
    settleIdle();
  }

  function later(ms: number, runDir: string) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      schedule(runDir);
    }, ms);
    timer.unref();
    timers.add(timer);
  }

  function backOff(runDir: string): number {
    const attempt = (attempts.get(runDir) ?? 0) + 1;
    attempts.set(runDir, attempt);
    return Math.min(retryBaseMs * 2 ** (attempt - 1), retryMostMs);
  }

  return {
    get started() {
      return started;
    },
    schedule,
    later,
    backOff,
    busy: (runDir) => running.has(runDir) || queued.has(runDir),
    working: () => running.size > 0 || queued.size > 0,
    succeeded(runDir) {
      attempts.delete(runDir);
    },
    exclusive(runDir, task) {
      return lock.run(runDir, task);
    },
    start(more, beforeSyncs) {
      started = true;
      for (const runDir of more) pending.add(runDir);
      const first = [...pending];
      pending.clear();
      beforeSyncs?.(first);
      for (const runDir of first) schedule(runDir);
      settleIdle();
      return first;
    },
    idle: whenIdle,
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      pending.clear(); // runs seen but never started: nothing is running for them
      const neverStarted = [...queued]; // waiting for a turn: they never get one
      queued.clear();
      let grace: NodeJS.Timeout | undefined;
      const drained = await Promise.race([
        whenIdle().then(() => true),
        new Promise<boolean>((resolve) => {
          grace = setTimeout(() => resolve(false), closeGraceMs);
        }),
      ]);
      clearTimeout(grace);
      if (!drained) {
        log.warn(
          { runs: [...running.keys(), ...neverStarted], waitedMs: closeGraceMs },
          'stopping while these runs still wait on Slack; what they did not finish is done again at the next start',
        );
      }
    },
  };
}
