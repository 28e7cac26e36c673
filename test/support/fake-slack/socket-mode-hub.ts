import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import {
  type AckResult,
  DELIVERY_FAILURE_KINDS,
  type DeliveryFailure,
  type EnvelopeType,
  isJsonObject,
  type JsonObject,
} from './types.js';

/** Reasons Slack gives in a `disconnect` message. */
export type DisconnectReason = 'refresh_requested' | 'link_disabled' | 'warning';

/**
 * How a connection is dropped: a `disconnect` message with its reason, then a close
 * handshake; or `cut`, the TCP connection ending with no close frame (a network fault).
 */
export type DropKind = DisconnectReason | 'cut';

/** One envelope handed to a connection, for tests that look at how deliveries were spread. */
export interface SocketDelivery {
  envelopeId: string;
  connectionId: number;
  envelopeType: EnvelopeType;
  payloadType: string;
  /** how many connections were open when it went out (it went to one of them) */
  openConnections: number;
}

/** What the hub needs from the rest of the stand-in. */
export interface SocketModeHubDeps {
  appId: string;
  random: () => number;
  ackTimeoutMs: number;
  pingIntervalMs: number;
  recordFailure(failure: Omit<DeliveryFailure, 'at'>): void;
}

/** What happened to a frame sent with `sendRawFrame`. */
export interface RawFrameResult {
  /** false when no connection was open */
  sent: boolean;
  /** an ack with the frame's envelope_id came back in time */
  acked: boolean;
}

interface Connection {
  id: number;
  socket: WebSocket;
}

interface PendingAck {
  connectionId: number;
  envelopeType: EnvelopeType;
  payloadType: string;
  timer: NodeJS.Timeout;
  resolve(result: AckResult): void;
}

const DEBUG_HOST = 'applink-fake-0';

/** Closes one socket as `how` says; resolves once it is closed. */
function drop(socket: WebSocket, how: DropKind): Promise<void> {
  return new Promise<void>((resolve) => {
    if (socket.readyState === WebSocket.CLOSED) return resolve();
    socket.once('close', () => resolve());
    if (how === 'cut') {
      socket.terminate();
      return;
    }
    // A client that never answers the close handshake is cut off.
    setTimeout(() => socket.terminate(), 2000).unref();
    if (socket.readyState === WebSocket.OPEN) {
      socket.send(
        JSON.stringify({ type: 'disconnect', reason: how, debug_info: { host: DEBUG_HOST } }),
      );
    }
    socket.close(1000);
  });
}

/**
 * Slack's side of Socket Mode: one-time WebSocket URLs, `hello`, envelopes delivered to one
 * random open connection, acks matched by envelope_id, `disconnect` messages and pings.
 */
export class SocketModeHub {
  readonly deliveries: SocketDelivery[] = [];
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly tickets = new Set<string>();
  private readonly connections = new Map<number, Connection>();
  private readonly pending = new Map<string, PendingAck>();
  private readonly expired = new Map<string, { envelopeType: EnvelopeType; payloadType: string }>();
  /** acks awaited for frames sent with `sendRawFrame`, by the envelope_id they carried */
  private readonly rawAcks = new Map<string, (acked: boolean) => void>();
  private readonly pinger: NodeJS.Timeout;
  private nextConnectionId = 0;
  /** while set, new connections wait for their `hello` (see `holdHellos`) */
  private hellosHeld = false;
  /** connections accepted whose `hello` is held */
  private readonly awaitingHello = new Set<number>();

  /** WebSocket connections ever accepted, open or closed since. */
  get connectionsOpened(): number {
    return this.nextConnectionId;
  }

  constructor(private readonly deps: SocketModeHubDeps) {
    // Slack pings its end of the socket; the client watches for those pings.
    this.pinger = setInterval(() => {
      for (const { socket } of this.connections.values()) {
        if (socket.readyState === WebSocket.OPEN) socket.ping();
      }
    }, deps.pingIntervalMs);
    this.pinger.unref();
  }

  /** Open connections (those that got `hello`). */
  get connectionCount(): number {
    return this.openConnections().length;
  }

  /**
   * Holds the `hello` of every connection accepted from now on (Slack sends it a moment after
   * the WebSocket opens; this makes that moment last) until the returned function sends them.
   * A connection waiting for its `hello` is not counted open and gets no envelope.
   */
  holdHellos(): () => void {
    this.hellosHeld = true;
    return () => {
      this.hellosHeld = false;
      for (const id of [...this.awaitingHello]) {
        const connection = this.connections.get(id);
        if (connection) this.sayHello(connection);
      }
    };
  }

  /** The ids of the open connections, oldest first (as `deliveries` names them). */
  get openConnectionIds(): number[] {
    return this.openConnections().map((c) => c.id);
  }

  private openConnections(): Connection[] {
    return [...this.connections.values()].filter(
      (c) => c.socket.readyState === WebSocket.OPEN && !this.awaitingHello.has(c.id),
    );
  }

  /** One random open connection, as Slack picks one for each envelope. */
  private pickOpen(): { connection: Connection | undefined; open: number } {
    const open = this.openConnections();
    return { connection: open[Math.floor(this.deps.random() * open.length)], open: open.length };
  }

  /** A one-time WebSocket URL, as apps.connections.open returns. */
  issueUrl(host: string): string {
    const ticket = randomUUID();
    this.tickets.add(ticket);
    return `ws://${host}/link/?ticket=${ticket}&app_id=${this.deps.appId}`;
  }

  /** Accepts a WebSocket upgrade for a valid, unused ticket; refuses anything else. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const ticket = url.searchParams.get('ticket');
    if (url.pathname !== '/link/' || !ticket || !this.tickets.delete(ticket)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws));
  }

  private onConnection(socket: WebSocket): void {
    this.nextConnectionId += 1;
    const id = this.nextConnectionId;
    const connection = { id, socket };
    this.connections.set(id, connection);
    const forget = () => {
      this.connections.delete(id);
      this.awaitingHello.delete(id);
    };
    socket.on('message', (data, isBinary) => this.onMessage(id, data, isBinary));
    socket.on('close', forget);
    socket.on('error', forget);
    if (this.hellosHeld) this.awaitingHello.add(id);
    else this.sayHello(connection);
  }

  /** Slack's first message on a connection: from then on it is open and gets envelopes. */
  private sayHello({ id, socket }: Connection): void {
    this.awaitingHello.delete(id);
    if (socket.readyState !== WebSocket.OPEN) return;
    socket.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.connectionCount,
        debug_info: {
          host: DEBUG_HOST,
          build_number: 1,
          approximate_connection_time: 18060,
        },
        connection_info: { app_id: this.deps.appId },
      }),
    );
  }

  private onMessage(connectionId: number, data: RawData, isBinary: boolean): void {
    if (isBinary) return;
    let message: unknown;
    try {
      message = JSON.parse(data.toString());
    } catch {
      return;
    }
    if (!isJsonObject(message) || typeof message.envelope_id !== 'string') return;
    const envelopeId = message.envelope_id;
    const rawAck = this.rawAcks.get(envelopeId);
    if (rawAck) {
      this.rawAcks.delete(envelopeId);
      rawAck(true);
      return;
    }
    const pending = this.pending.get(envelopeId);
    if (!pending) {
      const late = this.expired.get(envelopeId);
      if (late) {
        this.expired.delete(envelopeId);
        this.deps.recordFailure({
          kind: DELIVERY_FAILURE_KINDS.lateAck,
          ...late,
          envelopeId,
          detail: `ack for envelope ${envelopeId} arrived after the ${this.deps.ackTimeoutMs} ms deadline`,
        });
      }
      return;
    }
    // Slack only takes the ack on the connection the envelope went out on.
    if (pending.connectionId !== connectionId) return;
    this.pending.delete(envelopeId);
    clearTimeout(pending.timer);
    const payload = message.payload;
    const empty =
      payload === undefined || (isJsonObject(payload) && Object.keys(payload).length === 0);
    pending.resolve(empty ? { acked: true } : { acked: true, ackPayload: payload });
  }

  /** Sends one envelope to one random open connection and waits for its ack. */
  deliver(
    envelopeType: EnvelopeType,
    payload: JsonObject,
    acceptsResponsePayload: boolean,
  ): Promise<AckResult> {
    const payloadType = String(payload.type ?? payload.command ?? envelopeType);
    const { connection, open } = this.pickOpen();
    if (!connection) {
      this.deps.recordFailure({
        kind: DELIVERY_FAILURE_KINDS.noConnection,
        envelopeType,
        payloadType,
        detail: 'no Socket Mode connection is open and no request URL is set',
      });
      return Promise.resolve({ acked: false });
    }
    const envelopeId = randomUUID();
    this.deliveries.push({
      envelopeId,
      connectionId: connection.id,
      envelopeType,
      payloadType,
      openConnections: open,
    });
    return new Promise<AckResult>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(envelopeId);
        this.expired.set(envelopeId, { envelopeType, payloadType });
        this.deps.recordFailure({
          kind: DELIVERY_FAILURE_KINDS.noAck,
          envelopeType,
          payloadType,
          envelopeId,
          detail: `no ack within ${this.deps.ackTimeoutMs} ms on connection ${connection.id}`,
        });
        resolve({ acked: false });
      }, this.deps.ackTimeoutMs);
      this.pending.set(envelopeId, {
        connectionId: connection.id,
        envelopeType,
        payloadType,
        timer,
        resolve,
      });
      connection.socket.send(
        JSON.stringify({
          envelope_id: envelopeId,
          payload,
          type: envelopeType,
          accepts_response_payload: acceptsResponsePayload,
          retry_attempt: 0,
          retry_reason: '',
        }),
      );
    });
  }

  /**
   * Sends `text` exactly as given (a frame Slack itself would never send: not JSON, no
   * envelope_id, a null payload, …) on one random open connection. With `envelopeId`, waits
   * up to the ack timeout for an ack carrying it; a missing ack is the expected outcome for
   * some frames, so it is returned, not recorded as a failure.
   */
  sendRawFrame(text: string, envelopeId?: string): Promise<RawFrameResult> {
    const { connection } = this.pickOpen();
    if (!connection) return Promise.resolve({ sent: false, acked: false });
    if (envelopeId === undefined) {
      connection.socket.send(text);
      return Promise.resolve({ sent: true, acked: false });
    }
    return new Promise<RawFrameResult>((resolve) => {
      const timer = setTimeout(() => {
        this.rawAcks.delete(envelopeId);
        resolve({ sent: true, acked: false });
      }, this.deps.ackTimeoutMs);
      this.rawAcks.set(envelopeId, (acked) => {
        clearTimeout(timer);
        resolve({ sent: true, acked });
      });
      connection.socket.send(text);
    });
  }

  /** Sends `{ type: 'disconnect', reason }` on every connection, then closes them. */
  async disconnectAll(reason: DisconnectReason): Promise<void> {
    await Promise.all([...this.connections.values()].map(({ socket }) => drop(socket, reason)));
  }

  /**
   * Drops one open connection (`connectionId`, else a random one) the way `how` says, while
   * the others stay up; resolves with its id once it is closed. Envelopes already sent on it
   * and not acked yet are lost, as with Slack: an ack counts only on its own connection.
   */
  async dropConnection(options: { connectionId?: number; how?: DropKind } = {}): Promise<number> {
    const { connectionId, how = 'refresh_requested' } = options;
    const connection =
      connectionId === undefined
        ? this.pickOpen().connection
        : this.openConnections().find((c) => c.id === connectionId);
    if (!connection) {
      const open = this.openConnectionIds.join(', ') || 'none';
      throw new Error(
        `dropConnection: no open Socket Mode connection ${connectionId ?? ''} (open: ${open})`,
      );
    }
    await drop(connection.socket, how);
    return connection.id;
  }

  /** Drops every connection and fails every pending ack. */
  async close(): Promise<void> {
    clearInterval(this.pinger);
    for (const [envelopeId, pending] of this.pending) {
      clearTimeout(pending.timer);
      this.pending.delete(envelopeId);
      pending.resolve({ acked: false });
    }
    for (const [envelopeId, rawAck] of this.rawAcks) {
      this.rawAcks.delete(envelopeId);
      rawAck(false);
    }
    // A proper close handshake lets a client that is itself closing finish at once; a client
    // cut off mid-handshake would otherwise wait out its own 30 s close timeout.
    await Promise.all(
      [...this.connections.values()].map(
        ({ socket }) =>
          new Promise<void>((resolve) => {
            if (socket.readyState === WebSocket.CLOSED) return resolve();
            socket.once('close', () => resolve());
            setTimeout(() => socket.terminate(), 1000).unref();
            socket.close(1001, 'stand-in closing');
          }),
      ),
    );
    this.connections.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
