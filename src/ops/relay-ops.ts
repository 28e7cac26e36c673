import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import type { Config } from '../config/config-schema.js';
import { visibleSignature } from '../core/batch/batch-record.js';
import { createSlackProbe } from '../slack/start-up/probe-slack.js';
import type { SlackAppHooks } from '../slack/transport/create-slack-app.js';
import { observedFetch } from '../slack/transport/observed-fetch.js';
import type { SlackConnectionState } from '../slack/transport/socket-connection.js';
import type { StateStore } from '../store/state-store.js';
import { countSlackCall } from './count-slack-calls.js';
import { healthOf, type WatcherState } from './health.js';
import { type ObserveBatchesDeps, observeBatches, WAITING_FOR_ANSWER } from './observe-batches.js';
import { type OpsServer, startOpsServer } from './ops-server.js';
import { createRelayMetrics } from './relay-metrics.js';
import { createSlackReachability, type SlackAvailability } from './slack-reachability.js';

/** A probe Slack does not answer within this long counts as no answer. */
const PROBE_TIMEOUT_MS = 5000;

/**
 * What operators see of a running relay, in one place: the metrics (served with `/healthz`
 * on `RELAY_METRICS_PORT` when it is set) and the log lines about batches and Slack's
 * availability (always). `runStart` hands it the parts it follows: the store, the Slack app's
 * clients and connection, and the watcher.
 */
export function createRelayOps(
  config: Config,
  log: Logger,
  options: { now?: () => number; probeEveryMs?: number } = {},
) {
  const now = options.now ?? Date.now;
  const registry = new Registry();
  let store: StateStore | undefined;
  let connection: SlackConnectionState = 'connecting';
  let lostAt: number | undefined;
  let watcher: WatcherState = 'starting';
  let server: OpsServer | undefined;
  let watchedRuns = (): number => 0;

  const metrics = createRelayMetrics(
    registry,
    {
      openBatches: () =>
        store?.all().filter((r) => WAITING_FOR_ANSWER.includes(r.status)).length ?? 0,
      watchedRuns: () => watchedRuns(),
      slackConnected: () => connection === 'connected',
    },
    // Node's process metrics cost a timer and a GC observer: only when someone can read them.
    { processMetrics: config.metricsPort !== undefined },
  );
  const reachability = createSlackReachability({
    log,
    // batches whose message is behind their record: what the outage held up
    waiting: () =>
      store?.all().filter((r) => r.presentation?.shown !== visibleSignature(r)).length ?? 0,
    now,
    probe: createSlackProbe({
      apiUrl: config.slack.apiUrl,
      token: config.slack.botToken,
      timeoutMs: PROBE_TIMEOUT_MS,
    }),
    probeEveryMs: options.probeEveryMs,
  });

  /** Slack refreshes Socket Mode connections every few hours: a line each way, no alarm. */
  const connectionChanged = (state: SlackConnectionState) => {
    const was = connection;
    connection = state;
    if (config.slack.mode !== 'socket' || state === was) return;
    if (was === 'connected' && state !== 'closed') {
      lostAt = now();
      log.info('the Socket Mode connection to Slack closed; reconnecting');
    } else if (state === 'connected' && lostAt !== undefined) {
      log.info({ downForMs: now() - lostAt }, 'the Socket Mode connection to Slack is back');
      lostAt = undefined;
    }
  };

  const slackHooks: SlackAppHooks = {
    fetch: observedFetch(config.slack.apiUrl, (outcome) => {
      countSlackCall(metrics, outcome);
      reachability.report(outcome);
    }),
    onConnection: connectionChanged,
  };

  return {
    slackHooks,

    /** Whether Slack answers, and news of it coming back: what the queue's waits follow. */
    slackAvailability: reachability as SlackAvailability,

    /** The store, with every batch posted and answered counted and logged (see observeBatches). */
    observeStore(
      inner: StateStore,
      told: Pick<ObserveBatchesDeps, 'decided' | 'stored'> = {},
    ): StateStore {
      store = observeBatches(inner, { metrics, log, now, ...told });
      return store;
    },

    /**
     * Serves health and metrics, if asked to; the watcher counts as up once its first scan is
     * done, and its runs are counted.
     */
    async start(runWatcher: { ready: Promise<void>; watchedRuns(): number }): Promise<void> {
      watchedRuns = () => runWatcher.watchedRuns();
      runWatcher.ready.then(
        () => {
          if (watcher === 'starting') watcher = 'watching';
        },
        () => undefined, // the start fails with it, elsewhere
      );
      if (config.metricsPort === undefined) return;
      server = await startOpsServer({
        port: config.metricsPort,
        registry,
        log,
        health: () =>
          healthOf({
            mode: config.slack.mode,
            slack: connection,
            watcher,
            slackApiReachable: reachability.reachable,
          }),
      });
    },

    /** Where health and metrics are served, for the "relay ready" line. */
    get metricsPort(): number | undefined {
      return server?.port;
    },

    async close(): Promise<void> {
      watcher = 'stopped';
      reachability.close();
      await server?.close();
      server = undefined;
      registry.clear();
    },
  };
}

export type RelayOps = ReturnType<typeof createRelayOps>;
