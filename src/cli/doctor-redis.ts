import type { Logger } from 'pino';
import type { SharedConfig } from '../config/config-schema.js';
import { RelayError } from '../errors.js';
import { LEASE_TTL_MS, parseHolder } from '../redis/node-lease.js';
import { connectRedis, type RedisConnection } from '../redis/redis-connection.js';
import { describeRedisFailure } from '../redis/redis-failure.js';
import { redisKeys } from '../redis/redis-keys.js';
import { plainTextPassword, redisAddress } from '../redis/redis-url.js';
import { MIN_REDIS_VERSION, versionAtLeast, versionInInfo } from '../redis/redis-version.js';

/** How doctor reports one check. */
export interface CheckReport {
  pass(text: string): void;
  fail(text: string, fix: string): void;
  note(text: string, fix?: string): void;
}

/** What the Redis checks need besides the configuration. */
export interface RedisDoctorDeps {
  /** this machine's host name, as a relay here writes it into its lease */
  host: string;
  isAlive: (pid: number) => boolean;
  /** the pid of the relay running on `stateDir`, if one is */
  runningRelay: (stateDir: string) => Promise<number | undefined>;
  log: Logger;
  /** key namespace; tests give their own */
  namespace?: string;
}

/**
 * Doctor's checks of shared mode: Redis reachable with the credentials in `RELAY_REDIS_URL`,
 * new enough, and `RELAY_NODE` not held by another live relay; with notes on settings that
 * lose data (no AOF, evictions) and on a password sent in plain text.
 */
export async function checkRedis(
  shared: SharedConfig,
  stateDir: string,
  report: CheckReport,
  deps: RedisDoctorDeps,
): Promise<void> {
  const { redisUrl: url, node } = shared;
  let connection: RedisConnection;
  try {
    connection = await connectRedis({ url, log: deps.log, clientName: `o7-doctor:${node}` });
  } catch (error) {
    const { problem, fix } = describeRedisFailure(
      url,
      error instanceof RelayError ? error.cause : error,
    );
    report.fail(
      `${problem}; nothing else about Redis could be checked`,
      `${fix}, then run doctor again`,
    );
    return;
  }
  try {
    const info = await connection.call('reading INFO', (c) => c.info());
    const version = versionInInfo(info);
    if (versionAtLeast(version, MIN_REDIS_VERSION)) {
      report.pass(
        `Redis ${version} at ${redisAddress(url)} answers and accepts RELAY_REDIS_URL's credentials`,
      );
    } else {
      report.fail(
        `Redis at ${redisAddress(url)} is version ${version}; shared mode needs ${MIN_REDIS_VERSION.join('.')} or later (streams with XAUTOCLAIM)`,
        'upgrade Redis, or point RELAY_REDIS_URL at a newer one',
      );
    }
    if (plainTextPassword(url)) {
      report.note(
        'RELAY_REDIS_URL sends its password over the network unencrypted (redis:// to another machine)',
        'use rediss:// if the server offers TLS',
      );
    }
    if (/^aof_enabled:0/m.test(info)) {
      report.note(
        'Redis keeps no append-only file: if it restarts, the batches of every relay since its last snapshot are lost',
        'set appendonly yes in its configuration',
      );
    }
    const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
    if (policy !== undefined && policy !== 'noeviction') {
      report.note(
        `Redis's maxmemory-policy is ${policy}: when full it may drop batch records`,
        'set maxmemory-policy noeviction',
      );
    }
    await checkLease(connection, node, stateDir, report, deps);
  } catch (error) {
    report.fail(
      `Redis at ${redisAddress(url)} stopped answering during the checks (${error instanceof Error ? error.message : String(error)})`,
      'run doctor again once Redis is steady',
    );
  } finally {
    await connection.close();
  }
}

async function checkLease(
  connection: RedisConnection,
  node: string,
  stateDir: string,
  report: CheckReport,
  deps: RedisDoctorDeps,
): Promise<void> {
  const key = redisKeys(deps.namespace).lease(node);
  const value = await connection.call('reading the node lease', (c) => c.get(key));
  if (value === null) {
    report.pass(`RELAY_NODE=${node} is free: no running relay holds it`);
    return;
  }
  const holder = parseHolder(String(value));
  if (!holder) {
    report.fail(
      `RELAY_NODE=${node} is held in Redis by something that is not a relay's lease (${key})`,
      `delete the key ${key}, or give this relay another RELAY_NODE`,
    );
    return;
  }
  if (holder.host === deps.host) {
    if (!deps.isAlive(holder.pid)) {
      report.pass(
        `RELAY_NODE=${node} is still held by a relay on this machine that is gone (pid ${holder.pid}); the relay takes it over when it starts`,
      );
    } else if ((await deps.runningRelay(stateDir)) === holder.pid) {
      report.pass(`RELAY_NODE=${node} is held by the relay running here (pid ${holder.pid})`);
    } else {
      report.fail(
        `RELAY_NODE=${node} is held by another relay on this machine (pid ${holder.pid}, since ${holder.since}), not the one using RELAY_STATE_DIR`,
        'give each relay its own RELAY_NODE, or stop the other one',
      );
    }
    return;
  }
  report.fail(
    `RELAY_NODE=${node} is held by a relay on host ${holder.host} (pid ${holder.pid}, since ${holder.since}), renewed within the last ${LEASE_TTL_MS / 1000} s`,
    'give this machine another name with RELAY_NODE (two machines with one name would mix their runs), or stop that relay',
  );
}
