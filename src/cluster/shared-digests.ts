import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { RedisConnection } from '../redis/redis-connection.js';
import type { RedisKeys } from '../redis/redis-keys.js';
import { type DigestMessages, keptDigestSchema } from '../slack/digest/digest-messages.js';

/** How often the keeper of the digests renews its lease, and the others try to take it. */
export const DIGEST_LEASE_EVERY_MS = 5000;
/** A keeper that stopped renewing is replaced after this long. */
export const DIGEST_LEASE_TTL_MS = 3 * DIGEST_LEASE_EVERY_MS;

/**
 * Every channel's digest message, in Redis, read by every relay: a click on a digest is
 * checked against it wherever it lands, and a relay taking over as keeper edits the message
 * the last keeper posted. A stored entry that does not fit is treated as none (the next
 * digest is posted anew) and said in the log.
 */
export function sharedDigestMessages(
  connection: RedisConnection,
  keys: Pick<RedisKeys, 'digests'>,
  log: Logger,
): DigestMessages {
  return {
    async get(channel) {
      const stored = await connection.call("reading a channel's digest", (client) =>
        client.hGet(keys.digests, channel),
      );
      if (stored === null || stored === undefined) return undefined;
      try {
        const parsed = keptDigestSchema.safeParse(JSON.parse(String(stored)));
        if (parsed.success) return parsed.data;
      } catch {
        // said below
      }
      log.warn(
        { channel, key: keys.digests },
        "a channel's digest in Redis does not fit; a new one is posted",
      );
      return undefined;
    },
    async set(channel, message) {
      await connection.call("recording a channel's digest", (client) =>
        message
          ? client.hSet(keys.digests, channel, JSON.stringify(message))
          : client.hDel(keys.digests, channel),
      );
    },
    channels: async () =>
      (await connection.call('listing the digests', (client) => client.hKeys(keys.digests))).map(
        String,
      ),
  };
}

/** Which relay keeps the digests: one at a time, through a lease in Redis. */
export interface DigestLease {
  /** Whether this relay keeps them now. */
  holds(): boolean;
  /** Stops trying; frees the lease if this relay holds it, so another takes over at once. */
  release(): Promise<void>;
}

/**
 * Takes the digest keeper's lease when it is free (`SET NX PX`), renews it while held, and
 * tries again every `everyMs` while another relay holds it: when that relay stops or crashes
 * this one (or another) takes over within `ttlMs`. `changed` hears each gain and loss. A
 * relay that cannot reach Redis stops keeping a tick before its lease would run out, so that
 * two relays do not keep them at once.
 */
export function holdDigestLease(opts: {
  connection: RedisConnection;
  keys: Pick<RedisKeys, 'digestKeeper'>;
  node: string;
  log: Logger;
  changed: (held: boolean) => void;
  everyMs?: number;
  ttlMs?: number;
}): DigestLease {
  const { connection, log } = opts;
  const key = opts.keys.digestKeeper;
  const everyMs = opts.everyMs ?? DIGEST_LEASE_EVERY_MS;
  const ttlMs = opts.ttlMs ?? DIGEST_LEASE_TTL_MS;
  const value = `${opts.node}:${randomBytes(8).toString('hex')}`;
  let held = false;
  let renewedAt = 0;
  let stopped = false;

  const become = (now: boolean) => {
    if (now === held) return;
    held = now;
    log.info({ node: opts.node }, now ? 'keeping the digests' : 'no longer keeping the digests');
    opts.changed(now);
  };
  const tick = async () => {
    const asked = Date.now();
    const ours = held
      ? await connection.call('renewing the digest lease', (client) =>
          client.extendLease(key, value, ttlMs),
        )
      : (await connection.call('taking the digest lease', (client) =>
          client.set(key, value, { NX: true, PX: ttlMs }),
        )) === 'OK';
    if (ours) renewedAt = asked;
    if (!stopped) become(ours);
  };
  const run = () =>
    tick().catch((error: unknown) => {
      log.debug({ err: error }, 'could not renew or take the digest lease');
      // a tick early: by the next one, the lease may have run out and been taken
      if (held && Date.now() - renewedAt + everyMs >= ttlMs) become(false);
    });
  const timer = setInterval(run, everyMs);
  timer.unref();
  void run();

  return {
    holds: () => held,
    async release() {
      stopped = true;
      clearInterval(timer);
      if (!held) return;
      held = false;
      await connection
        .call('freeing the digest lease', (client) => client.dropLease(key, value))
        .catch((error: unknown) => {
          log.warn({ err: error }, 'could not free the digest lease; it expires by itself');
        });
    },
  };
}
