import type { SlackConnectionState } from '../slack/transport/socket-connection.js';

/** The watcher's state: its first scan under way, watching, or closed at stop. */
export type WatcherState = 'starting' | 'watching' | 'stopped';

/** What `/healthz` is decided from. */
export interface HealthInputs {
  mode: 'socket' | 'http';
  slack: SlackConnectionState;
  watcher: WatcherState;
  /** whether Slack's Web API answered the last request; said, but not a reason for 503 */
  slackApiReachable: boolean;
}

/** The answer to `/healthz`: its HTTP status and JSON body. */
export interface HealthReport {
  status: 200 | 503;
  body: {
    ok: boolean;
    /** why not, in one sentence; only when not ok */
    reason?: string;
    slack: { mode: 'socket' | 'http'; connection: SlackConnectionState; apiReachable: boolean };
    watcher: WatcherState;
  };
}

/** What a connection state means for people clicking in Slack. */
function connectionProblem(mode: 'socket' | 'http', state: SlackConnectionState) {
  if (state === 'connected') return undefined;
  if (mode === 'socket' && state === 'refused') {
    return 'Slack refused a new Socket Mode connection and the client gave up: clicks in Slack do not reach the relay until it is restarted (the log says why)';
  }
  return mode === 'socket'
    ? `the Socket Mode connection to Slack is ${state}: clicks in Slack do not reach the relay`
    : 'the relay is not listening for Slack requests (PORT)';
}

const WATCHER_PROBLEMS: Record<Exclude<WatcherState, 'watching'>, string> = {
  starting: 'the run folders are still being scanned for the first time',
  stopped: 'the run folders are no longer watched: the relay is stopping',
};

/**
 * 200 when the relay can do its work: Slack's interactions reach it (Socket Mode connected,
 * or HTTP mode's server listening) and the run folders are watched; 503 otherwise, with the
 * reasons. A Web API that does not answer is reported but is no reason on its own: the relay
 * retries it by itself, and restarting the relay would not bring Slack back.
 */
export function healthOf(inputs: HealthInputs): HealthReport {
  const reasons = [
    connectionProblem(inputs.mode, inputs.slack),
    inputs.watcher === 'watching' ? undefined : WATCHER_PROBLEMS[inputs.watcher],
  ].filter((r): r is string => r !== undefined);
  const body: HealthReport['body'] = {
    ok: reasons.length === 0,
    ...(reasons.length > 0 ? { reason: reasons.join('; ') } : {}),
    slack: {
      mode: inputs.mode,
      connection: inputs.slack,
      apiReachable: inputs.slackApiReachable,
    },
    watcher: inputs.watcher,
  };
  return { status: reasons.length === 0 ? 200 : 503, body };
}
