import { Counter, collectDefaultMetrics, Gauge, Histogram, type Registry } from 'prom-client';

/** Every metric of the relay's own, by what it counts; docs/service.md lists them too. */
export const METRIC_NAMES = {
  openBatches: 'o7_relay_open_batches',
  watchedRuns: 'o7_relay_watched_runs',
  slackConnected: 'o7_relay_slack_connected',
  batchesPosted: 'o7_relay_batches_posted_total',
  batchesAnswered: 'o7_relay_batches_answered_total',
  batchesAnsweredElsewhere: 'o7_relay_batches_answered_elsewhere_total',
  slackApiCalls: 'o7_relay_slack_api_calls_total',
  slackApiErrors: 'o7_relay_slack_api_errors_total',
  rateLimitWaits: 'o7_relay_slack_rate_limit_waits_total',
  rateLimitWaitSeconds: 'o7_relay_slack_rate_limit_wait_seconds_total',
  postLatency: 'o7_relay_post_latency_seconds',
  submitLatency: 'o7_relay_submit_latency_seconds',
} as const;

/** What the gauges read when Prometheus scrapes: the relay's state at that moment. */
export interface MetricSources {
  /** batches waiting for an answer (open, or with an answer file being written) */
  openBatches(): number;
  /** run folders the watcher reported and has not seen go */
  watchedRuns(): number;
  /** whether the connection Slack's interactions come through is up */
  slackConnected(): boolean;
}

/**
 * A question file noticed → its message accepted by Slack: seconds normally, minutes while
 * Slack is down or rate-limits.
 */
const POST_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800];

/** A Submit click → the answer file published: well under a second unless the disk is slow. */
const SUBMIT_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Defines the relay's metrics on `registry` (its own, never prom-client's global one, so each
 * relay and each test counts apart), with Node's standard process metrics beside them unless
 * `processMetrics` is false.
 */
export function createRelayMetrics(
  registry: Registry,
  sources: MetricSources,
  { processMetrics = true }: { processMetrics?: boolean } = {},
) {
  const registers = [registry];
  if (processMetrics) collectDefaultMetrics({ register: registry });
  new Gauge({
    name: METRIC_NAMES.openBatches,
    help: 'Batches waiting for an answer (open, or with their answer file being written)',
    registers,
    collect() {
      this.set(sources.openBatches());
    },
  });
  new Gauge({
    name: METRIC_NAMES.watchedRuns,
    help: 'Run folders whose qa/ folder is being watched (or polled)',
    registers,
    collect() {
      this.set(sources.watchedRuns());
    },
  });
  new Gauge({
    name: METRIC_NAMES.slackConnected,
    help: '1 while the connection Slack interactions come through is up (Socket Mode connected, or the HTTP server listening), else 0',
    registers,
    collect() {
      this.set(sources.slackConnected() ? 1 : 0);
    },
  });
  return {
    batchesPosted: new Counter({
      name: METRIC_NAMES.batchesPosted,
      help: 'Batches of questions whose message Slack accepted (each batch once)',
      registers,
    }),
    batchesAnswered: new Counter({
      name: METRIC_NAMES.batchesAnswered,
      help: 'Batches answered in Slack: their answer file published by the relay',
      registers,
    }),
    batchesAnsweredElsewhere: new Counter({
      name: METRIC_NAMES.batchesAnsweredElsewhere,
      help: 'Batches another provider (such as the terminal) answered first',
      registers,
    }),
    slackApiCalls: new Counter({
      name: METRIC_NAMES.slackApiCalls,
      help: 'HTTP requests to Slack Web API methods, retries included',
      labelNames: ['method'] as const,
      registers,
    }),
    slackApiErrors: new Counter({
      name: METRIC_NAMES.slackApiErrors,
      help: "Web API requests that failed, by Slack's error code, ratelimited, http_<status> or network_error",
      labelNames: ['method', 'code'] as const,
      registers,
    }),
    rateLimitWaits: new Counter({
      name: METRIC_NAMES.rateLimitWaits,
      help: 'Times Slack answered 429 and the Web API client paused for Retry-After',
      labelNames: ['method'] as const,
      registers,
    }),
    rateLimitWaitSeconds: new Counter({
      name: METRIC_NAMES.rateLimitWaitSeconds,
      help: 'Seconds of Retry-After the Web API client was asked to wait',
      labelNames: ['method'] as const,
      registers,
    }),
    postLatency: new Histogram({
      name: METRIC_NAMES.postLatency,
      help: 'Seconds from a question file noticed to its message accepted by Slack',
      buckets: POST_BUCKETS,
      registers,
    }),
    submitLatency: new Histogram({
      name: METRIC_NAMES.submitLatency,
      help: 'Seconds from a Submit click to the answer file published',
      buckets: SUBMIT_BUCKETS,
      registers,
    }),
  };
}

export type RelayMetrics = ReturnType<typeof createRelayMetrics>;
