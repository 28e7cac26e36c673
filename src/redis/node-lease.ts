import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import * as z from 'zod';
import { ErrorCode, RelayError } from '../errors.js';
import type { RedisConnection } from './redis-connection.js';
import { redisKeys } from './redis-keys.js';

/** How often a live relay renews its lease (and records its heartbeat). */
export const HEARTBEAT_MS = 5000;
/** A lease not renewed for this long expires: a crashed relay's name is free after 3 heartbeats. */
export const LEASE_TTL_MS = 3 * HEARTBEAT_MS;

/** Who holds a node name, as written into its lease. */
export interface LeaseHolder {
  /** random per start: tells this start from an earlier one that had the same pid */
  token: string;
  host: string;
  pid: number;
  /** ISO time the lease was taken */
  since: string;
}

const holderSchema = z.object({
  token: z.string(),
  host: z.string(),
  pid: z.number().int(),
  since: z.string(),
});

/** Another live relay holds this `RELAY_NODE`; two relays with one name would mix their runs. */
export class NodeTakenError extends RelayError {
  readonly holder: LeaseHolder | undefined;

  constructor(node: string, holder: LeaseHolder | undefined, ttlMs: number) {
    const who = holder
      ? `the relay with pid ${holder.pid} on host ${holder.host}, since ${holder.since}`
      : 'another relay';
    super(
      ErrorCode.NodeTaken,
      `RELAY_NODE=${node} is held by ${who}, which is still renewing it. Stop that relay, or give this one another name with RELAY_NODE. If that relay has crashed, the name is free again within ${Math.ceil(ttlMs / 1000)} s.`,
    );
    this.name = 'NodeTakenError';
    this.holder = holder;
  }
}

/** The node name, held. */
export interface NodeLease {
  readonly node: string;
  /** Called once if another relay takes the name (after this lease expired in an outage). */
  onLost(listener: (holder: LeaseHolder | undefined) => void): void;
  /** Stops the heartbeat and frees the name, if it is still ours. */
  release(): Promise<void>;
}

/** What `acquireNodeLease` needs. */
export interface NodeLeaseOptions {
  connection: RedisConnection;
  node: string;
  log: Logger;
  namespace?: string;
  /** this machine's host name and this process's pid, written into the lease */
  host: string;
  pid?: number;
  /** whether a process on this machine is alive (a crashed holder here is taken over at once) */
  isAlive: (pid: number) => boolean;
  heartbeatMs?: number;
  ttlMs?: number;
  now?: () => Date;
}

/**
 * Takes `RELAY_NODE` for this relay: `SET NX PX` in Redis, renewed at every heartbeat while
 * it still holds our value, released on a clean stop. A name held by a live relay is refused
 * with a `NodeTakenError`. A lease left by a relay that crashed on this same machine (its pid
 * is gone) is taken over at once; one from another machine expires after `ttlMs`.
 */
export async function acquireNodeLease(opts: NodeLeaseOptions): Promise<NodeLease> {
  const { connection, node, log } = opts;
  const keys = redisKeys(opts.namespace);
  const heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
  const ttlMs = opts.ttlMs ?? LEASE_TTL_MS;
  const now = opts.now ?? (() => new Date());
  const holder: LeaseHolder = {
    token: randomBytes(12).toString('hex'),
    host: opts.host,
    pid: opts.pid ?? process.pid,
    since: now().toISOString(),
  };
  const value = JSON.stringify(holder);
  const args = { leaseKey: keys.lease(node), nodesKey: keys.nodes, value, ttlMs, node };

  const take = () => connection.call(`taking RELAY_NODE=${node}`, (c) => c.takeLease(args));

  let first = await take();
  if (!first.taken) {
    const current = parseHolder(first.holder);
    const crashedHere =
      current !== undefined &&
      current.host === holder.host &&
      (current.pid === holder.pid || !opts.isAlive(current.pid));
    if (!crashedHere) throw new NodeTakenError(node, current, ttlMs);
    log.warn(
      { node, stalePid: current.pid, since: current.since },
      'taking over RELAY_NODE from a relay on this machine that is gone',
    );
    await connection.call('dropping a stale lease', (c) =>
      c.dropLease(args.leaseKey, first.holder),
    );
    first = await take();
    if (!first.taken) throw new NodeTakenError(node, parseHolder(first.holder), ttlMs);
  }

  let stopped = false;
  let lost = false;
  const lostListeners: Array<(holder: LeaseHolder | undefined) => void> = [];
  const beat = async () => {
    if (await connection.call('renewing the node lease', (c) => c.refreshLease(args))) return;
    // Expired (a long outage, or Redis lost its data): take it again if nobody else did.
    const again = await take();
    if (again.taken) {
      log.warn({ node }, 'the node lease had expired; took it again');
      return;
    }
    if (lost) return;
    lost = true;
    const other = parseHolder(again.holder);
    log.error(
      { node, holder: other },
      'another relay now holds RELAY_NODE (this one lost its lease while Redis was away); two relays with one name mix their runs: stop one of them',
    );
    for (const listener of lostListeners) listener(other);
  };
  const timer = setInterval(() => {
    if (stopped) return;
    beat().catch((error: unknown) => {
      // Redis away: the connection logs the outage once; the next heartbeat tries again
      log.debug({ err: error, node }, 'could not renew the node lease');
    });
  }, heartbeatMs);
  timer.unref();
  log.info({ node, ttlMs }, 'holding RELAY_NODE');

  return {
    node,
    onLost(listener) {
      lostListeners.push(listener);
    },
    async release() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await connection
        .call('freeing RELAY_NODE', (c) => c.dropLease(args.leaseKey, value))
        .catch((error: unknown) => {
          // it expires by itself
          log.warn({ err: error, node }, 'could not free RELAY_NODE; it expires by itself');
        });
    },
  };
}

/** A lease's holder, if the lease holds one of ours. */
export function parseHolder(value: string): LeaseHolder | undefined {
  try {
    const parsed = holderSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
