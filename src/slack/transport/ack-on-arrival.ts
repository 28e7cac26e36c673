import type { SocketModeReceiver } from '@slack/bolt';
import type { Logger } from 'pino';

/** What the Socket Mode client hands its `slack_event` listeners (`@slack/socket-mode` 3). */
interface SlackEventArgs {
  type?: unknown;
  body?: unknown;
  ack: (response?: unknown) => Promise<void>;
}

type SlackEventHandler = (args: SlackEventArgs) => unknown;

/** Interaction payloads whose ack carries nothing: Slack only needs to hear it arrived. */
const ACK_CARRIES_NOTHING: ReadonlySet<string> = new Set(['block_actions', 'view_closed']);

/**
 * Whether an envelope is acknowledged the moment it arrives: events (the relay answers none of
 * them in its ack) and the interactions whose ack carries nothing. A form's submission and a
 * type-ahead search are not: their ack is the answer (errors under an input, the options).
 */
function acksOnArrival({ type, body }: SlackEventArgs): boolean {
  if (type === 'events_api') return true;
  if (type !== 'interactive' || typeof body !== 'object' || body === null) return false;
  const payloadType = (body as { type?: unknown }).type;
  return typeof payloadType === 'string' && ACK_CARRIES_NOTHING.has(payloadType);
}

/**
 * Acknowledges clicks, selections and events on the connection they came on as soon as the
 * Socket Mode client has read them, before Bolt's middleware and the relay's listeners run: no
 * lookup, allow-list check or Slack call can then make Slack's 3 s run out (and the person see
 * "not responding"), however busy the relay is. The `ack()` those listeners call does nothing
 * more. A failed ack (the connection closing under it) is logged; the work goes on.
 */
export function ackOnArrival(receiver: SocketModeReceiver, log: Logger): void {
  const { client } = receiver;
  const handlers = client.listeners('slack_event') as SlackEventHandler[];
  const [handle] = handlers;
  if (!handle || handlers.length !== 1) {
    // Fail at start, not at the first click: the receiver was changed under us.
    throw new Error(
      `the Socket Mode client has ${handlers.length} "slack_event" listeners (expected Bolt's one); @slack/bolt changed how its receiver reads events, so src/slack/transport/ack-on-arrival.ts must be updated`,
    );
  }
  client.removeListener('slack_event', handle);
  client.on('slack_event', (args: SlackEventArgs) => {
    if (!acksOnArrival(args)) return handle.call(client, args);
    const acked = args.ack().catch((err: unknown) => {
      log.warn({ err }, 'could not acknowledge a Slack interaction; it is handled all the same');
    });
    return handle.call(client, { ...args, ack: () => acked });
  });
}
