import type { Logger } from 'pino';
import { pauseUnlessStopped, unlessStopped } from './stop-signals.js';

/** How long to wait between tries while a service cannot be reached: doubling from first to most. */
export interface BackOff {
  firstRetryMs?: number;
  mostRetryMs?: number;
}

const BACK_OFF_DEFAULTS = { firstRetryMs: 1000, mostRetryMs: 30_000 } as const;

/** What one try found: the value, or why the service could not be reached (it is tried again). */
export type TryOutcome<T> = { ok: true; value: T } | { ok: false; reason: string };

/** What {@link waitUntilReachable} waits for, and how it tells about it. */
export interface ReachableWait<T> {
  /** One try; throws for a failure that waiting cannot fix (a token refused, a wrong password). */
  tryOnce: () => Promise<TryOutcome<T>>;
  log: Logger;
  /** what is waited for, as the log lines name it: `Slack`, `Redis` */
  service: string;
  /** fields of each line about the wait, e.g. the address tried */
  where: Record<string, unknown>;
  /** the end of the warning: what to check if the wait goes on */
  hint: string;
  backOff?: BackOff;
  /** gives the wait up (rejecting with its reason), also in the middle of a try */
  signal?: AbortSignal;
  now?: () => number;
}

/**
 * Tries until the service answers, with a growing pause between tries: a relay started at
 * boot may come up before the network, Slack or Redis does. The log tells the wait once: a
 * warning at the first failed try (the reason, and what to check), a debug line for each try
 * after it, and one line when it is through, with how long it took.
 */
export async function waitUntilReachable<T>(wait: ReachableWait<T>): Promise<T> {
  const { log, service, where, signal } = wait;
  const first = wait.backOff?.firstRetryMs ?? BACK_OFF_DEFAULTS.firstRetryMs;
  const most = wait.backOff?.mostRetryMs ?? BACK_OFF_DEFAULTS.mostRetryMs;
  const now = wait.now ?? Date.now;
  const started = now();
  let delay = first;
  for (let attempt = 1; ; attempt += 1) {
    signal?.throwIfAborted();
    const outcome = await unlessStopped(wait.tryOnce(), signal);
    if (outcome.ok) {
      if (attempt > 1) {
        log.info(
          { ...where, attempts: attempt, waitedMs: now() - started },
          `${service} can be reached now`,
        );
      }
      return outcome.value;
    }
    const { reason } = outcome;
    if (attempt === 1) {
      log.warn(
        { ...where, reason, retryInMs: delay, mostRetryMs: most },
        `${service} cannot be reached (${reason}); waiting for it, trying again with a growing pause (at most ${seconds(most)}; each try is a debug line). ${wait.hint}`,
      );
    } else {
      log.debug(
        { ...where, attempt, reason, retryInMs: delay },
        `${service} still cannot be reached`,
      );
    }
    await pauseUnlessStopped(delay, signal);
    delay = Math.min(delay * 2, most);
  }
}

const seconds = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);
