import type { Logger } from 'pino';
import type { BatchRecord } from '../core/batch/batch-record.js';
import { ESCALATION_FROM, withHandOff } from '../core/batch/hand-off.js';
import type { StateStore } from '../store/state-store.js';
import type { BatchActions } from './actions/batch-actions.js';
import { PresentUnavailable } from './presenter.js';

/** When unanswered batches are reminded about and escalated. */
export interface ReminderPolicy {
  /** first reminder this long after the batch is first seen open; absent: no reminders */
  remindAfterMs?: number;
  /** each interval is this many times the one before (default 2) */
  growth?: number;
  /** the most reminders one batch gets (default 5) */
  limit?: number;
  /** hand the batch off to `to` when still open this long after it is first seen */
  escalate?: { afterMs: number; to: string };
}

/** The reminder scheduler: a timer over the open batches' deadlines. */
export interface Reminders {
  /** Looks for due deadlines now, then every `tickMs`. */
  start(): void;
  /** One pass over open batches (tests call it instead of waiting for the timer). */
  tick(): Promise<void>;
  /** Stops the timer and waits for a pass under way. */
  close(): Promise<void>;
}

/** Options of {@link createReminders}. */
export interface RemindersDeps {
  store: Pick<StateStore, 'all'>;
  /** the queue's actions: a reminder's deadlines move on in the batch's record */
  actions: Pick<BatchActions, 'amendOpen'>;
  /** posts the reminder (count is 1-based); throws when it could not, so it is tried again */
  remind(record: BatchRecord, count: number, limit: number): Promise<void>;
  policy: ReminderPolicy;
  log: Logger;
  now?: () => Date;
  /** how often due deadlines are looked for (default 5 s) */
  tickMs?: number;
}

/**
 * Reminds people of unanswered batches and escalates them. Every deadline is kept in the
 * batch's record, not in memory: deadlines are set the first time a batch is seen open and
 * moved on (or cleared) in the record before a reminder is sent, so a restart neither repeats
 * a reminder nor loses one, and one that fell due while the relay was down is sent once on
 * the first tick.
 */
export function createReminders(deps: RemindersDeps): Reminders {
  const { actions, policy, log } = deps;
  const now = deps.now ?? (() => new Date());
  const tickMs = deps.tickMs ?? 5000;
  const growth = policy.growth ?? 2;
  const limit = policy.limit ?? 5;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;
  /** Batches whose last reminder failed: only the first failure is a warning (see run-display). */
  const failing = new Set<string>();

  const iso = (ms: number) => new Date(ms).toISOString();

  /** Sets the deadlines a newly seen open batch lacks. */
  function withDeadlines(record: BatchRecord, at: number): BatchRecord | undefined {
    const next = { ...record };
    let changed = false;
    if (policy.remindAfterMs && next.nextReminderAt === undefined && next.reminders === undefined) {
      next.nextReminderAt = iso(at + policy.remindAfterMs);
      next.reminders = 0;
      changed = true;
    }
    if (policy.escalate && next.escalateAt === undefined && !next.escalated) {
      next.escalateAt = iso(at + policy.escalate.afterMs);
      changed = true;
    }
    return changed ? next : undefined;
  }

  async function remindIfDue(record: BatchRecord, at: number): Promise<void> {
    const { remindAfterMs } = policy;
    const due = record.nextReminderAt;
    if (!remindAfterMs || !due || Date.parse(due) > at) return;
    const count = (record.reminders ?? 0) + 1;
    const advanced = await actions.amendOpen(record.key, (current) => {
      if (current.nextReminderAt !== due) return undefined; // someone else moved it on
      const { nextReminderAt: _, ...rest } = current;
      return count < limit
        ? { ...rest, reminders: count, nextReminderAt: iso(at + remindAfterMs * growth ** count) }
        : { ...rest, reminders: count };
    });
    if (!advanced) return;
    try {
      await deps.remind(advanced, count, limit);
      failing.delete(record.key);
      log.info({ runDir: record.runDir, seq: record.seq, count }, 'reminder sent');
    } catch (err) {
      const why = err instanceof PresentUnavailable ? { error: err.message } : { err };
      const fields = { ...why, runDir: record.runDir, seq: record.seq };
      const message = 'could not send a reminder; will try again';
      if (failing.has(record.key)) log.debug(fields, message);
      else log.warn(fields, message);
      failing.add(record.key);
      // put the deadline back so the next tick tries again
      await actions.amendOpen(record.key, (current) =>
        current.reminders === count
          ? { ...current, reminders: count - 1, nextReminderAt: due }
          : undefined,
      );
    }
  }

  async function escalateIfDue(record: BatchRecord, at: number): Promise<void> {
    const { escalate } = policy;
    const due = record.escalateAt;
    if (!escalate || record.escalated || !due || Date.parse(due) > at) return;
    const done = await actions.amendOpen(record.key, (current) => {
      if (current.escalated) return undefined;
      const handOff = {
        from: ESCALATION_FROM,
        to: escalate.to,
        at: iso(at),
        note: 'Nobody answered in time, so the relay escalated these questions.',
      };
      return { ...withHandOff(current, handOff), escalated: true };
    });
    if (done)
      log.info({ runDir: record.runDir, seq: record.seq, to: escalate.to }, 'batch escalated');
  }

  async function tick(): Promise<void> {
    for (const record of deps.store.all()) {
      if (closed) return;
      if (record.status !== 'open') continue;
      try {
        const at = now().getTime();
        const fresh = withDeadlines(record, at);
        if (fresh) {
          await actions.amendOpen(record.key, (current) => withDeadlines(current, at));
          continue; // deadlines lie ahead
        }
        await escalateIfDue(record, at);
        await remindIfDue(record, at);
      } catch (err) {
        log.warn({ err, runDir: record.runDir, seq: record.seq }, 'could not check reminders');
      }
    }
  }

  /** One pass at a time; a tick asked for during one joins it. */
  function runTick(): Promise<void> {
    running ??= tick().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    start() {
      if (!policy.remindAfterMs && !policy.escalate) return;
      void runTick();
      timer = setInterval(() => void runTick(), tickMs);
      timer.unref();
    },
    tick: runTick,
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
