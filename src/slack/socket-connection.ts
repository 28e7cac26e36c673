/**
 * Where the connection that brings Slack's interactions stands: `disconnected` when it was
 * lost (the client reconnects by itself), `closed` when the relay closed it (at stop). In HTTP
 * mode `connected` means the relay's server listens for Slack's requests.
 */
export type SlackConnectionState =
  | 'connecting'
  | 'connected'
  | 'reconnecting'
  | 'disconnected'
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

/** Reports every change of the Socket Mode client's connection, as it happens. */
export function followSocketConnection(
  client: { on(event: string, listener: () => void): unknown },
  report: (state: SlackConnectionState) => void,
): void {
  for (const [event, state] of Object.entries(STATE_OF_EVENT)) {
    client.on(event, () => report(state));
  }
}
