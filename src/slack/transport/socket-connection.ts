/**
 * Where the connection that brings Slack's interactions stands: `disconnected` when it was
 * lost (the client reconnects by itself), `refused` when Slack refused a new one for good (a
 * revoked app token: the client gives up, and only a restart with a valid token brings it
 * back), `closed` when the relay closed it (at stop). In HTTP mode `connected` means the
 * relay's server listens for Slack's requests.
 */
export type SlackConnectionState =
  | 'connecting'
  | 'connected'
  | 'reconnecting'
  | 'disconnected'
  | 'refused'
  | 'closed';

/**
 * The Socket Mode client's lifecycle events (`@slack/socket-mode` 3) and what each says of the
 * connection. `close` is its WebSocket closing, after which it reconnects by itself (with
 * `reconnecting`), so it is the one that marks an outage; `disconnecting` and `disconnected`
 * only come with the relay's own `disconnect()` (or a start that failed).
 */
const STATE_OF_EVENT: Readonly<Record<string, SlackConnectionState>> = {
  connecting: 'connecting',
  connected: 'connected',
  reconnecting: 'reconnecting',
  close: 'disconnected',
  disconnecting: 'closed',
  disconnected: 'closed',
};

/** Which state of several connections says most about whether clicks get through. */
const BEST_FIRST: readonly SlackConnectionState[] = [
  'connected',
  'reconnecting',
  'connecting',
  'disconnected',
  'refused',
  'closed',
];

/**
 * Where the relay stands with Slack when it holds several Socket Mode connections: Slack
 * hands each click to one open connection, so one connected is enough to be `connected`;
 * otherwise the most hopeful of the others (`closed` only once every one is).
 */
export function combinedState(states: readonly SlackConnectionState[]): SlackConnectionState {
  return BEST_FIRST.find((state) => states.includes(state)) ?? 'connecting';
}

/** A Socket Mode client, as far as its lifecycle events go. */
export interface LifecycleEmitter {
  on(event: string, listener: () => void): unknown;
}

/** The states only a new start leaves: the client itself will not reconnect from them. */
const ENDED: readonly SlackConnectionState[] = ['closed', 'refused'];

/**
 * Follows the connections' lifecycle events and reports the relay's state (see
 * {@link combinedState}) each time one of them changes. A connection closed by the relay stays
 * `closed` (the client's own `close` that follows is no outage) until it starts again; one
 * marked `refused` (the client emits nothing when it gives up) stays so too. Only connections
 * that have started count, so a second one not opened yet changes nothing.
 */
export function followSocketConnections(
  clients: readonly LifecycleEmitter[],
  report: (
    state: SlackConnectionState,
    changed: { index: number; state: SlackConnectionState },
  ) => void,
): { refused(index: number): void } {
  const states: (SlackConnectionState | undefined)[] = clients.map(() => undefined);
  const change = (index: number, state: SlackConnectionState) => {
    const was = states[index];
    if (was !== undefined && ENDED.includes(was) && state !== 'connecting') return;
    if (was === state) return;
    states[index] = state;
    const started = states.filter((s): s is SlackConnectionState => s !== undefined);
    report(combinedState(started), { index, state });
  };
  clients.forEach((client, index) => {
    for (const [event, state] of Object.entries(STATE_OF_EVENT)) {
      client.on(event, () => change(index, state));
    }
  });
  return { refused: (index) => change(index, 'refused') };
}
