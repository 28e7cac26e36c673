import type { Logger } from 'pino';
import type { WebApiOutcome } from '../slack/observed-fetch.js';

/** What makes an answer say Slack is unreachable: none came, or Slack's side failed (5xx). */
export function isUnreachable(outcome: WebApiOutcome): boolean {
  return outcome.kind === 'network' || (outcome.kind === 'http-error' && outcome.status >= 500);
}

/** What went wrong, in a few words for the log. */
const problemOf = (outcome: WebApiOutcome): string =>
  outcome.kind === 'network'
    ? outcome.message
    : outcome.kind === 'http-error'
      ? `HTTP ${outcome.status}`
      : outcome.kind;

export interface SlackReachabilityDeps {
  log: Logger;
  /** how many batches wait to be shown as they are, told when Slack is back */
  waiting: () => number;
  /** the clock the outage is timed with (ms) */
  now?: () => number;
}

/**
 * Follows whether Slack's Web API answers, from every request's outcome, and logs an outage
 * once: one warning when requests stop getting answers, one line when one is answered again
 * (with how long it took and how many batches wait). The retries in between are the Web API
 * client's and the queue's, and are not logged one by one.
 */
export function createSlackReachability(deps: SlackReachabilityDeps) {
  const now = deps.now ?? Date.now;
  let downSince: number | undefined;
  return {
    /** false from a request Slack did not answer until the next one it did */
    get reachable(): boolean {
      return downSince === undefined;
    },
    report(outcome: WebApiOutcome): void {
      if (isUnreachable(outcome)) {
        if (downSince !== undefined) return;
        downSince = now();
        deps.log.warn(
          { method: outcome.method, problem: problemOf(outcome) },
          'Slack cannot be reached; the relay keeps trying and logs once it is back',
        );
        return;
      }
      if (downSince === undefined) return;
      const downForMs = now() - downSince;
      downSince = undefined;
      deps.log.info({ downForMs, batchesWaiting: deps.waiting() }, 'Slack can be reached again');
    },
  };
}

export type SlackReachability = ReturnType<typeof createSlackReachability>;
