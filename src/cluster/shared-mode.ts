import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { SharedConfig } from '../config/config-schema.js';
import type { BatchRecord } from '../core/batch/batch-record.js';
import type { BatchActions } from '../queue/actions/batch-actions.js';
import type { Presenter } from '../queue/presenter.js';
import type { RunOwners } from '../queue/runs/run-owners.js';
import { acquireNodeLease } from '../redis/node-lease.js';
import type { RedisConnection } from '../redis/redis-connection.js';
import { redisKeys } from '../redis/redis-keys.js';
import { requireRedisVersion } from '../redis/redis-version.js';
import { waitForRedis } from '../redis/wait-for-redis.js';
import { type SubmittedViews, submittedViewsInRedis } from '../slack/access/submitted-views.js';
import type { DigestMessages } from '../slack/digest/digest-messages.js';
import { openRedisStateStore } from '../store/redis/redis-state-store.js';
import { acquireStateDirLock, processIsAlive } from '../store/state-dir-lock.js';
import type { StateStore } from '../store/state-store.js';
import type { BackOff } from '../wait-until-reachable.js';
import { createOwnerRequests, type OwnerAway } from './owner-requests.js';
import { type OwnerWork, startOwnerWork } from './owner-work.js';
import { type DigestLease, holdDigestLease, sharedDigestMessages } from './shared-digests.js';
import { createSharedQuestions, withSharedQuestions } from './shared-questions.js';

/** What a relay in shared mode has besides what every relay has. */
export interface SharedMode {
  node: string;
  store: StateStore;
  /** the key sealing form metadata: one for every relay, so any of them can open a form */
  sealKey: Buffer;
  /** the form submissions any relay acted on, so a replay to another relay changes nothing */
  submittedViews: SubmittedViews;
  /** Shares each batch's questions before it is shown, for the other relays. */
  present(inner: Presenter): Presenter;
  /** The relays holding other machines' runs, asked what only they can do. */
  owners: RunOwners;
  /** Starts doing the work other relays ask of this node's runs (once the queue is ready). */
  serve(actions: Pick<BatchActions, 'submit' | 'cancel'>): void;
  /** Stops taking that work (before the queue closes); what is under way is finished. */
  stopServing(): Promise<void>;
  /** Whether this relay holds the record's run. */
  holds(record: BatchRecord): boolean;
  /** Every channel's digest message, one for the team. */
  digestMessages: DigestMessages;
  /** Keeps the digests whenever no other relay does; `changed` hears this relay start and stop. */
  keepDigests(changed: (held: boolean) => void): DigestLease;
  close(): Promise<void>;
}

/**
 * Opens shared mode: two connections to Redis (one for commands and pub/sub, one for reading
 * this node's work stream, which blocks), the node's lease, the Redis state store and the
 * parts that let any relay act on any batch. The state folder is still locked: it holds the
 * `ask` folders, and `ask` finds the running relay through its lock. While Redis cannot be
 * reached it is waited for (`waitForRedis`); `signal` gives the opening up, closing what it
 * opened.
 */
export async function openSharedMode(
  shared: SharedConfig,
  stateDir: string,
  log: Logger,
  opts: {
    /** How people are told, once per batch, that its answers wait for its machine's relay. */
    tellOwnerAway?: OwnerAway;
    /** the pause between tries while Redis cannot be reached (default 1 s doubling to 30 s) */
    redisWait?: BackOff;
    signal?: AbortSignal;
  } = {},
): Promise<SharedMode> {
  const { node } = shared;
  const keys = redisKeys();
  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  };
  const connect = async (role: string): Promise<RedisConnection> => {
    const connection = await waitForRedis({
      url: shared.redisUrl,
      log: log.child({ component: 'redis', role }),
      clientName: `o7-relay:${node}:${role}`,
      backOff: opts.redisWait,
      signal: opts.signal,
    });
    closers.push(() => connection.close());
    return connection;
  };
  try {
    await mkdir(stateDir, { recursive: true });
    const stateLock = await acquireStateDirLock(stateDir, log);
    closers.push(() => stateLock.release());
    const connection = await connect('commands');
    await requireRedisVersion(connection);
    opts.signal?.throwIfAborted();
    const lease = await acquireNodeLease({
      connection,
      node,
      host: hostname(),
      isAlive: processIsAlive,
      log: log.child({ component: 'node-lease' }),
    });
    closers.push(() => lease.release());
    lease.onLost((holder) =>
      log.error(
        { node, holder },
        `another relay took RELAY_NODE=${node} while this one could not reach Redis; stop one of them`,
      ),
    );
    const store = await openRedisStateStore({
      connection,
      node,
      log: log.child({ component: 'store' }),
    });
    closers.push(() => store.close());
    const sealKey = await sharedSealKey(connection, keys.sealKey);
    const questions = createSharedQuestions({ connection, keys, log });
    const owners = await createOwnerRequests({
      ownerAway: opts.tellOwnerAway,
      connection,
      keys,
      node,
      questions,
      current: (key) => store.get(key),
      log: log.child({ component: 'owner-requests' }),
    });
    closers.push(() => owners.close());
    const reader = await connect('work');
    opts.signal?.throwIfAborted();
    let owner: OwnerWork | undefined;
    closers.push(async () => owner?.stop());
    return {
      node,
      store,
      sealKey,
      submittedViews: submittedViewsInRedis(connection, keys.submittedView),
      present: (inner) => withSharedQuestions(inner, questions),
      owners,
      holds: (record) => owners.holds(record),
      digestMessages: sharedDigestMessages(connection, keys, log.child({ component: 'digest' })),
      keepDigests(changed) {
        const lease = holdDigestLease({
          connection,
          keys,
          node,
          log: log.child({ component: 'digest' }),
          changed,
        });
        closers.push(() => lease.release());
        return lease;
      },
      serve(actions) {
        owner ??= startOwnerWork({
          reader,
          connection,
          keys,
          node,
          actions,
          log: log.child({ component: 'owner-work' }),
        });
      },
      stopServing: async () => owner?.stop(),
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** The seal key every relay shares: made by the first relay that needs it. */
async function sharedSealKey(connection: RedisConnection, key: string): Promise<Buffer> {
  const made = randomBytes(32).toString('base64url');
  await connection.call('making the form seal key', (client) =>
    client.set(key, made, { NX: true }),
  );
  const stored = await connection.call('reading the form seal key', (client) => client.get(key));
  const bytes = Buffer.from(String(stored ?? ''), 'base64url');
  if (bytes.length !== 32) {
    throw new Error(
      `the form seal key in Redis (${key}) is not 32 bytes; delete it and restart every relay`,
    );
  }
  return bytes;
}
