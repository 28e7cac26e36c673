import {
  type App,
  type LogLevel,
  type Receiver,
  SocketModeReceiver,
  type webApi,
} from '@slack/bolt';
import type { Logger } from 'pino';
import { slackErrorKind } from '../../core/slack/slack-error-kinds.js';
import { ackOnArrival } from './ack-on-arrival.js';
import { guardSocketFrames } from './guard-socket-frames.js';
import { followSocketConnections, type SlackConnectionState } from './socket-connection.js';

/**
 * Socket Mode connections the relay holds. Slack hands each event to one open connection of
 * the app (it allows 10), so while one reconnects (after Slack's `disconnect`, a dropped link
 * or a missed ping; the client waits 5 s first) the other takes every click.
 */
export const SOCKET_CONNECTIONS = 2;

/**
 * How long after the first connection is up the second opens. Slack refreshes a connection
 * after some hours of age; opened this far apart, the two are never refreshed (and away for
 * the client's 5 s pause) together.
 */
export const SOCKET_STAGGER_MS = 10_000;

/**
 * Socket connection retries: keep trying for a long time. This object is copied for each
 * connection because the Socket Mode client writes into the options it is given.
 */
const SOCKET_RETRY = { retries: 1000, factor: 1.5, minTimeout: 1000, maxTimeout: 30_000 };

/** The Web API error code of a failed `apps.connections.open`, if Slack gave one. */
function slackCodeOf(err: unknown): string | undefined {
  const data = (err as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

/** What to do about a connection the client gave up on. */
function refusalFix(code: string | undefined): string {
  if (code !== undefined && slackErrorKind(code).scope === 'app') {
    return `${code}: ${slackErrorKind(code).fix.replace(/^the token/, 'SLACK_APP_TOKEN')}`;
  }
  return `${code ?? 'Slack could not be reached through every retry'}: restart the relay once Slack answers again`;
}

/** What {@link SocketReceiver} needs. */
export interface SocketReceiverOptions {
  appToken: string;
  apiUrl: string;
  /** Bolt's logger (see bolt-logger) and level, for the clients */
  logger: ConstructorParameters<typeof SocketModeReceiver>[0]['logger'];
  logLevel: LogLevel;
  /** the relay's own logger */
  log: Logger;
  fetch?: webApi.FetchFunction;
  /** told where the relay stands with Slack (any connection up: `connected`) */
  onConnection?: (state: SlackConnectionState) => void;
  /** default {@link SOCKET_STAGGER_MS} */
  staggerMs?: number;
}

/**
 * Bolt's receiver for Socket Mode, holding {@link SOCKET_CONNECTIONS} connections of the app,
 * each a Bolt `SocketModeReceiver` with its own `apps.connections.open` URL, fed into the one
 * App; every envelope is acked on the connection it came on. `start` resolves once the first
 * is connected; the others open one stagger apart. `stop` closes them all, those still opening
 * included.
 */
export class SocketReceiver implements Receiver {
  private readonly receivers: SocketModeReceiver[];
  private readonly staggerMs: number;
  private readonly log: Logger;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly connections: { refused(index: number): void };
  private stopped = false;

  constructor(options: SocketReceiverOptions) {
    this.staggerMs = options.staggerMs ?? SOCKET_STAGGER_MS;
    this.log = options.log.child({ component: 'slack' });
    const guardLog = options.log.child({ component: 'slack-guard' });
    this.receivers = Array.from({ length: SOCKET_CONNECTIONS }, (_, index) => {
      const receiver = new SocketModeReceiver({
        appToken: options.appToken,
        logger: options.logger,
        logLevel: options.logLevel,
        installerOptions: {
          clientOptions: {
            slackApiUrl: options.apiUrl,
            retryConfig: this.retryConfig(),
            fetch: this.untilStopped(options.fetch ?? globalThis.fetch),
          },
        },
      });
      guardSocketFrames(receiver, guardLog);
      ackOnArrival(receiver, this.log);
      this.catchReconnections(receiver.client, index);
      // The client cannot be stopped while it fetches its URL: one that opens after `stop`
      // (a start or a reconnect under way then) is closed again at once.
      receiver.client.on('connected', () => {
        if (this.stopped) void receiver.stop();
      });
      return receiver;
    });
    const { onConnection } = options;
    this.connections = followSocketConnections(
      this.receivers.map((r) => r.client),
      (state, changed) => {
        const connection = changed.index + 1;
        this.log.debug(
          { connection, state: changed.state, relay: state },
          'Socket Mode connection',
        );
        onConnection?.(state);
      },
    );
  }

  /**
   * The retries of one connection's `apps.connections.open`. A connection still being asked
   * for when the relay stops (Slack down, say) cannot be called off in the client: its waits
   * hold no process open, and its next try fails at once (see `untilStopped`) and gives up.
   */
  private retryConfig(): webApi.RetryOptions {
    const retries = {
      ...SOCKET_RETRY,
      unref: true,
      // p-retry (inside the Web API client) stops retrying when this throws
      onFailedAttempt: () => {
        if (this.stopped) throw new Error('the relay stopped: no Socket Mode connection is opened');
      },
    };
    return retries;
  }

  /**
   * The client reconnects by calling its own `start()` and drops what that returns, uncaught.
   * A stop while the new connection waits for Slack's `hello` makes that start reject (with no
   * reason at all), which ended every such stop in an unhandled rejection of `undefined`: a
   * start cut short by the relay's own stop is no failure. Any other rejection means the client
   * gave up for good (Slack refused the app token, or could not be reached through every retry)
   * and will not try again. A first start's failure is its caller's to report; a reconnection's
   * has no caller: the relay says so, with what to do, and marks the connection
   * `refused`, so `/healthz` does not report it as reconnecting for ever.
   */
  private catchReconnections(client: SocketModeReceiver['client'], index: number): void {
    const start = client.start.bind(client);
    let connectedOnce = false;
    client.on('connected', () => {
      connectedOnce = true;
    });
    (client as { start(): Promise<unknown> }).start = () =>
      start().catch((err: unknown) => {
        if (this.stopped) return undefined;
        if (!connectedOnce) throw err; // a first start: its caller reports it
        const code = slackCodeOf(err);
        this.log.error(
          { err, connection: index + 1, code },
          `Slack refused a new Socket Mode connection and the client gave up: ${refusalFix(code)}. Clicks in Slack reach the relay through its other connections only, if any are left.`,
        );
        this.connections.refused(index);
        return undefined;
      });
  }

  /** `fetch` for the connections' Web API calls, failing without a request once stopped. */
  private untilStopped(fetch: webApi.FetchFunction): webApi.FetchFunction {
    return (url, init) =>
      this.stopped
        ? Promise.reject(new Error('the relay stopped: no Socket Mode connection is opened'))
        : fetch(url, init);
  }

  init(app: App): void {
    for (const receiver of this.receivers) receiver.init(app);
  }

  async start(): Promise<unknown> {
    this.stopped = false;
    const [first, ...others] = this.receivers as [SocketModeReceiver, ...SocketModeReceiver[]];
    const opened = await first.start();
    if (this.stopped) return opened;
    others.forEach((receiver, i) => {
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          receiver.start().catch((err: unknown) => {
            if (this.stopped) return;
            this.log.warn(
              { err, connection: i + 2 },
              'could not open another Socket Mode connection; clicks still come through the first',
            );
          });
        },
        this.staggerMs * (i + 1),
      );
      timer.unref();
      this.timers.add(timer);
    });
    return opened;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.all(this.receivers.map((receiver) => receiver.stop()));
  }
}
