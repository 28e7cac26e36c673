import { type WebApiOutcome, webApiErrorCode } from '../slack/transport/observed-fetch.js';
import type { RelayMetrics } from './relay-metrics.js';

type SlackCallMetrics = Pick<
  RelayMetrics,
  'slackApiCalls' | 'slackApiErrors' | 'rateLimitWaits' | 'rateLimitWaitSeconds'
>;

/**
 * Counts one Web API request: every request by method, a failed one by its code too, and a
 * 429 with a usable Retry-After as a rate-limit wait (the only kind the Web API client waits
 * out; without one it gives up at once).
 */
export function countSlackCall(metrics: SlackCallMetrics, outcome: WebApiOutcome): void {
  const { method } = outcome;
  metrics.slackApiCalls.inc({ method });
  const code = webApiErrorCode(outcome);
  if (code !== undefined) metrics.slackApiErrors.inc({ method, code });
  if (outcome.kind === 'rate-limited' && outcome.retryAfterSec !== undefined) {
    metrics.rateLimitWaits.inc({ method });
    metrics.rateLimitWaitSeconds.inc({ method }, outcome.retryAfterSec);
  }
}
