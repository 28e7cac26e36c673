import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { BatchRecord } from '../../core/batch/batch-record.js';
import { ErrorCode, RelayError } from '../../errors.js';
import type { RedisConnection } from '../../redis/redis-connection.js';
import { redisKeys } from '../../redis/redis-keys.js';
import { createKeyedLock } from '../keyed-lock.js';
import type { NoticeBook } from '../notice-book.js';
import { createRecordMirror, parseStoredRecord, type VersionedRecord } from '../record-mirror.js';
import type { StateStore } from '../state-store.js';
import { assertSameBatch } from '../state-store.js';
import { toStorable } from '../storable-record.js';
import { openRedisNoticeBook } from './redis-notice-book.js';
import { readRedisRecords } from './redis-records.js';

/** What `openRedisStateStore` needs. */
export interface RedisStateStoreOptions {
  connection: RedisConnection;
  /** `RELAY_NODE`: records this relay puts without a node are this node's */
  node: string;
  log: Logger;
  /** key namespace (tests give each store family its own); default `o7relay` */
  namespace?: string;
  now?: () => Date;
  random?: () => number;
}

/**
 * How long an update keeps redoing its change while other relays keep changing the batch
 * first: inside the time a click may take.
 */
const UPDATE_BUDGET_MS = 2000;
/** The longest pause before redoing a change after a conflict. */
const CONFLICT_PAUSE_MAX_MS = 20;

/** Other relays changed a batch every time this one tried; nothing was changed by it. */
export class BatchBusyError extends RelayError {
  constructor(key: string, attempts: number) {
    super(
      ErrorCode.BatchBusy,
      `batch ${key} was changed by other relays at each of ${attempts} attempts in ${UPDATE_BUDGET_MS} ms; nothing was changed, try again`,
    );
    this.name = 'BatchBusyError';
  }
}
/** How soon a reload that failed is tried again while the connection is up. */
const RELOAD_RETRY_MS = 500;

/**
 * Batch records of every node in Redis (shared mode), with a copy of all of them in memory so
 * that reads stay synchronous and never wait on Redis.
 *
 * - Each record is stored under its node, run and seq, as `<version>|<JSON>`; every write
 *   runs in a Lua script that takes a new version from one counter, so `update` is an
 *   optimistic transaction: it sends the change with the version it was made on, and when
 *   another relay got there first the script answers with the newer record and the change is
 *   made again on that (no lost update, one round trip when nobody else writes).
 * - The copy is kept fresh by pub/sub: the scripts publish every write and forget on one
 *   channel. Pub/sub forgets nothing while connected and costs nothing per reader; what is
 *   missed while disconnected is made good by reloading everything on every reconnect (also
 *   needed at start). Keyspace notifications would need server configuration that managed
 *   Redis often refuses, and only carry key names; a stream would need trimming and a read
 *   position per relay for what the reload already gives.
 * - `put`, `update` and `forget` resolve once Redis has the write; reads see it from then on
 *   (the file store shows a put sooner). While Redis is away they fail at once with a
 *   `RedisUnavailableError` ("try again in a moment"), and reads serve the last copy.
 * - `forRun` and `forget` are about this node's runs: a run folder is on one machine. `get`
 *   and `all` see every node's records. Batch keys must be unique across nodes: a `put` of a
 *   key another node's batch holds is refused.
 * - `close` leaves the connection open: its owner closes it.
 */
export async function openRedisStateStore(opts: RedisStateStoreOptions): Promise<StateStore> {
  const { connection, node, log } = opts;
  const random = opts.random ?? Math.random;
  const now = () => (opts.now ?? (() => new Date()))().getTime();
  const keys = redisKeys(opts.namespace);
  const mirror = createRecordMirror();
  // tells this store's own writes, which the feed brings back too, from other relays'
  const writer = randomBytes(9).toString('base64url');
  let closed = false;
  const inFlight = new Set<Promise<unknown>>();

  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    const settle = () => inFlight.delete(work);
    work.then(settle, settle);
    return work;
  };

  // Writes of one batch from this relay go one after another: racing each other through
  // Redis would only turn into conflicts and retries. Other relays are met by the versions.
  const batchLock = createKeyedLock();
  const inTurn = <T>(key: string, work: () => Promise<T>): Promise<T> =>
    track(batchLock.run(key, work));

  const onChange = (message: string) => {
    if (closed) return;
    const change = parseChange(message);
    if (typeof change === 'string') {
      log.warn(
        { problem: change, channel: keys.changes },
        'ignoring a change message that is not ours',
      );
      return;
    }
    if (change.kind === 'forget') mirror.forgetRun(change.node, change.runDir, change.version);
    else if (mirror.apply(change.entry) && change.writer !== writer) {
      tellWatchers(change.entry.record);
    }
  };
  const watchers = new Set<(record: BatchRecord) => void>();
  const tellWatchers = (record: BatchRecord) => {
    for (const watcher of watchers) {
      try {
        watcher(record);
      } catch (error) {
        log.error({ err: error, key: record.key }, 'a watcher of batch changes failed');
      }
    }
  };

  let reloading: Promise<void> | undefined;
  let reloadAgain = false;
  let retryTimer: NodeJS.Timeout | undefined;
  const reload = (): Promise<void> => {
    if (reloading) {
      reloadAgain = true;
      return reloading;
    }
    reloading = (async () => {
      do {
        reloadAgain = false;
        await readRedisRecords(connection, keys, log).then(({ snapshot, clock }) => {
          mirror.reload(snapshot, clock);
          // what changed while this relay was away is not known record by record: all of it
          for (const record of mirror.all()) tellWatchers(record);
        });
      } while (reloadAgain && !closed);
    })().finally(() => {
      reloading = undefined;
    });
    return reloading;
  };
  const reloadInBackground = () => {
    if (closed) return;
    clearTimeout(retryTimer);
    reload().then(
      () => log.debug({ batches: mirror.size }, 'batch records reloaded from Redis'),
      (error: unknown) => {
        // still away: the next reconnect reloads; while connected, try again shortly
        log.debug({ err: error }, 'reloading batch records from Redis failed');
        if (!closed && connection.ready) {
          retryTimer = setTimeout(reloadInBackground, RELOAD_RETRY_MS);
          retryTimer.unref();
        }
      },
    );
  };

  // Subscribed before the first load, so nothing written meanwhile is missed.
  await connection.call('subscribing to batch changes', (client) =>
    client.subscribe(keys.changes, onChange),
  );
  const stopReconnects = connection.onReconnect(reloadInBackground);
  let notices: NoticeBook;
  try {
    await reload();
    notices = await openRedisNoticeBook({ connection, key: keys.notices(node), now: opts.now });
  } catch (error) {
    stopReconnects();
    await connection.client.unsubscribe(keys.changes, onChange).catch(() => undefined);
    throw error;
  }
  log.info({ node, batches: mirror.size, redis: connection.address }, 'state loaded from Redis');

  const refuseIfClosed = (what: string) => {
    if (closed) throw new Error(`state store (Redis, node ${node}) is closed; ${what}`);
  };

  /** Writes `record` (checked) under its node; with `expected`, only on that version. */
  const write = async (
    record: BatchRecord,
    expected: number | undefined,
  ): Promise<{ ok: VersionedRecord } | { conflict: string }> => {
    const stored = toStorable({ ...record, node: record.node ?? node });
    const owner = stored.node ?? node;
    const reply = await connection.call(`saving batch ${stored.key}`, (client) =>
      client.writeRecord({
        runKey: keys.run(owner, stored.runDir),
        runsKey: keys.runs,
        batchIndexKey: keys.batchIndex,
        clockKey: keys.clock,
        channel: keys.changes,
        runMember: keys.runMember(owner, stored.runDir),
        seq: stored.seq,
        batchKey: stored.key,
        expectedVersion: expected,
        json: JSON.stringify(stored),
        writer,
      }),
    );
    const [outcome, detail = ''] = reply;
    if (outcome === 'ok') {
      const entry = { record: stored, version: Number(detail) };
      mirror.apply(entry);
      return { ok: entry };
    }
    if (outcome === 'conflict') return { conflict: detail };
    throw new TypeError(
      `batch key ${stored.key} is already used by another batch (${detail}), not by run ${stored.runDir} seq ${stored.seq} of node ${owner}; in shared mode batch keys must be unique across nodes`,
    );
  };

  /** The record under `key` as Redis has it now, taken into the copy; undefined if none. */
  const fetch = async (key: string): Promise<VersionedRecord | undefined> => {
    const found = await connection.call(`reading batch ${key}`, async (client) => {
      const where = await client.hGet(keys.batchIndex, key);
      if (where === null || where === undefined) return undefined;
      const [member, seq] = splitLocation(String(where));
      const value = await client.hGet(keys.runOfMember(member), seq);
      return value === null || value === undefined ? undefined : String(value);
    });
    if (found === undefined) {
      mirror.drop(key);
      return undefined;
    }
    return takeStored(found, key);
  };

  const takeStored = (value: string, key: string): VersionedRecord | undefined => {
    if (value === '') {
      mirror.drop(key); // gone meanwhile
      return undefined;
    }
    const parsed = parseStoredRecord(value);
    if (typeof parsed === 'string') {
      throw new Error(`batch ${key} in Redis cannot be read: ${parsed}`);
    }
    mirror.apply(parsed);
    return mirror.get(key) ?? parsed;
  };

  return {
    get: (key) => mirror.get(key)?.record,
    forRun: (runDir) => mirror.forRun(node, runDir),
    all: () => mirror.all(),
    get notices() {
      return notices;
    },

    watch(listener) {
      watchers.add(listener);
      return () => watchers.delete(listener);
    },

    async put(record) {
      refuseIfClosed(`batch ${record.key} was not saved`);
      await inTurn(record.key, () => write(record, undefined));
    },

    async update(key, change) {
      refuseIfClosed(`batch ${key} was not changed`);
      return inTurn(key, async () => {
        let current = mirror.get(key) ?? (await fetch(key));
        const started = now();
        for (let attempt = 1; ; attempt += 1) {
          if (!current) return undefined;
          const next = change(current.record);
          if (next === undefined) return current.record;
          assertSameBatch(current.record, next);
          const result = await write(next, current.version);
          if ('ok' in result) return result.ok.record;
          current = takeStored(result.conflict, key);
          if (now() - started > UPDATE_BUDGET_MS) throw new BatchBusyError(key, attempt);
          // The relay that won answers its next click first; a short random pause lets the
          // others through instead of losing every race to it.
          if (attempt > 1) await pause(random() * Math.min(CONFLICT_PAUSE_MAX_MS, 2 ** attempt));
        }
      });
    },

    async forget(runDir) {
      refuseIfClosed(`run ${runDir} was not forgotten`);
      await track(
        (async () => {
          const version = await connection.call(`forgetting run ${runDir}`, (client) =>
            client.forgetRun(
              {
                runKey: keys.run(node, runDir),
                runsKey: keys.runs,
                batchIndexKey: keys.batchIndex,
                clockKey: keys.clock,
              },
              { channel: keys.changes, runMember: keys.runMember(node, runDir), node, runDir },
            ),
          );
          mirror.forgetRun(node, runDir, Number(version));
        })(),
      );
    },

    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(retryTimer);
      stopReconnects();
      await Promise.allSettled([...inFlight]);
      await notices.idle();
      if (connection.ready) {
        await connection.client.unsubscribe(keys.changes, onChange).catch(() => undefined);
      }
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Change =
  | { kind: 'put'; writer: string; entry: VersionedRecord }
  | { kind: 'forget'; node: string; runDir: string; version: number };

/**
 * A message of the changes channel: `p<writer>|<version>|<JSON>` or
 * `f<version>|<node>|<runDir>`.
 */
function parseChange(message: string): Change | string {
  if (message.startsWith('p')) {
    const bar = message.indexOf('|');
    const entry = parseStoredRecord(message.slice(bar + 1));
    const writer = message.slice(1, bar);
    return typeof entry === 'string' ? entry : { kind: 'put', writer, entry };
  }
  if (message.startsWith('f')) {
    const [version, changedNode, ...runDir] = message.slice(1).split('|');
    const v = Number(version);
    if (Number.isSafeInteger(v) && changedNode && runDir.length > 0) {
      return { kind: 'forget', node: changedNode, runDir: runDir.join('|'), version: v };
    }
  }
  return `unknown change message ${JSON.stringify(message.slice(0, 40))}`;
}

/** `<node>:<runId>:<seq>` → the run member and the seq. */
function splitLocation(where: string): [string, string] {
  const at = where.lastIndexOf(':');
  return [where.slice(0, at), where.slice(at + 1)];
}
