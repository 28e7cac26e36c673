import type { Logger } from 'pino';
import { isSlackOutageCode } from '../core/slack/slack-error-kinds.js';
import type { WebApiOutcome } from '../slack/transport/observed-fetch.js';

/**
 * What makes an answer say Slack is down: none came, Slack's side failed (5xx, its HTML error
 * pages), or Slack said so itself (`ok: false` with `service_unavailable`, `internal_error`, …).
 * A rate limit, or a refusal of this one call, is an answer.
 */
export function isUnreachable(outcome: WebApiOutcome): boolean {
  switch (outcome.kind) {
    case 'network':
      return true;
    case 'http-error':
      return outcome.status >= 500;
    case 'refused':
      return isSlackOutageCode(outcome.code);
    default:
      return false;
  }
}

/** What went wrong, in a few words for the log. */
const problemOf = (outcome: WebApiOutcome): string =>
  outcome.kind === 'network'
    ? outcome.message
    : outcome.kind === 'http-error'
      ? `HTTP ${outcome.status}`
      : outcome.kind === 'refused'
        ? outcome.code
        : outcome.kind;

/** How often Slack is asked whether it answers again, while it does not. */
const PROBE_EVERY_MS = 2000;

export interface SlackReachabilityDeps {
  log: Logger;
  /** how many batches wait to be shown as they are, told when Slack is back */
  waiting: () => number;
  /** the clock the outage is timed with (ms) */
  now?: () => number;
  /**
   * Asks Slack whether it answers (a call that changes nothing, such as `auth.test`, without
   * retries); called every `probeEveryMs` while Slack is down. Without it, only the relay's
   * own calls tell when Slack is back.
   */
  probe?: () => Promise<WebApiOutcome>;
  /** default 2 s: a batch waiting on Slack is posted this soon after Slack answers again */
  probeEveryMs?: number;
  /** Runs `fn` in `ms` (an unref'd `setTimeout` unless a test drives the probes itself). */
  setTimer?: (fn: () => void, ms: number) => { cancel(): void };
}

const unrefTimer = (fn: () => void, ms: number) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return { cancel: () => clearTimeout(timer) };
};

/** Told what the relay learns about a Slack that was down. */
export interface SlackComeback {
  /**
   * The probe got an answer, while the relay's own calls have not yet: one of them may be
   * tried, to learn whether Slack takes them again (it may answer the probe and still fail
   * posts). Returns whether one is tried or under way; when none is, Slack counts as back.
   */
  answering(): boolean;
  /** A call of the relay's went through: everything that waited on Slack may go. */
  back(): void;
}

/** Slack's availability as the queue waits on it (see {@link createSlackReachability}). */
export interface SlackAvailability {
  /** false from a call Slack did not answer until the next one it did */
  readonly reachable: boolean;
  /** Follows what is learnt while Slack is down; returns a function that stops following. */
  follow(listener: SlackComeback): () => void;
}

/**
 * The relay's one notion of whether Slack is down, from every request's outcome. An outage is
 * logged once: one warning when requests stop getting answers, one line when a method that
 * failed is answered again (with how long it took and how many batches wait). While it lasts Slack is probed at a
 * steady, short interval, so that what waits on Slack (see `createSlackWait`) goes on as soon
 * as it answers, not after a back-off that grew through the outage. The retries in between are
 * the Web API client's and the queue's, and are not logged one by one.
 */
export function createSlackReachability(deps: SlackReachabilityDeps) {
  const now = deps.now ?? Date.now;
  const probeEveryMs = deps.probeEveryMs ?? PROBE_EVERY_MS;
  const setTimer = deps.setTimer ?? unrefTimer;
  const listeners = new Set<SlackComeback>();
  let downSince: number | undefined;
  /** the methods Slack did not answer since the outage began */
  const failing = new Set<string>();
  let probing: { cancel(): void } | undefined;
  let closed = false;

  function backNow(): void {
    if (downSince === undefined) return;
    const downForMs = now() - downSince;
    downSince = undefined;
    failing.clear();
    probing?.cancel();
    probing = undefined;
    deps.log.info({ downForMs, batchesWaiting: deps.waiting() }, 'Slack can be reached again');
    for (const listener of listeners) listener.back();
  }

  function probeLater(): void {
    const probe = deps.probe;
    if (probe === undefined || closed || downSince === undefined) return;
    probing = setTimer(async () => {
      const outcome = await probe().catch(
        (error: unknown): WebApiOutcome => ({
          method: 'auth.test',
          kind: 'network',
          message: error instanceof Error ? error.message : String(error),
        }),
      );
      if (closed || downSince === undefined) return;
      if (!isUnreachable(outcome)) answeredOther();
      probeLater();
    }, probeEveryMs);
  }

  /**
   * Slack answered a call other than those it failed (the probe, or a Socket Mode connection
   * opening while posts fail): the calls that failed may still fail, so one is tried, and Slack
   * counts as back when none is.
   */
  function answeredOther(): void {
    let tried = false;
    for (const listener of listeners) tried = listener.answering() || tried;
    if (!tried) backNow();
  }

  return {
    /** false from a request Slack did not answer until the next one it did */
    get reachable(): boolean {
      return downSince === undefined;
    },
    /** Takes the outcome of one of the relay's own requests to Slack. */
    report(outcome: WebApiOutcome): void {
      if (!isUnreachable(outcome)) {
        if (downSince === undefined || failing.has(outcome.method)) backNow();
        else answeredOther();
        return;
      }
      failing.add(outcome.method);
      if (downSince !== undefined) return;
      downSince = now();
      deps.log.warn(
        { method: outcome.method, problem: problemOf(outcome) },
        'Slack cannot be reached; the relay keeps trying and logs once it is back',
      );
      probeLater();
    },
    follow(listener: SlackComeback): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Stops probing. */
    close(): void {
      closed = true;
      probing?.cancel();
      listeners.clear();
    },
  };
}

export type SlackReachability = ReturnType<typeof createSlackReachability>;
