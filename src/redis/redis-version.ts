import { ErrorCode, RelayError } from '../errors.js';
import type { RedisConnection } from './redis-connection.js';

/** The oldest Redis shared mode works with: streams with XAUTOCLAIM came in 6.2. */
export const MIN_REDIS_VERSION = [6, 2] as const;

/** Whether a version like `7.0.15` is at least `min` (major, minor). */
export function versionAtLeast(version: string, min: readonly [number, number]): boolean {
  const [major = Number.NaN, minor = 0] = version.split('.').map(Number);
  if (!Number.isFinite(major)) return false;
  return major > min[0] || (major === min[0] && minor >= min[1]);
}

/** The server's version in INFO's text (`?` when it does not say). */
export function versionInInfo(info: string): string {
  return /^redis_version:(\S+)/m.exec(info)?.[1] ?? '?';
}

/** Refuses to start on a Redis too old for shared mode, saying what to change. */
export async function requireRedisVersion(connection: RedisConnection): Promise<void> {
  const version = versionInInfo(await connection.call('reading INFO', (c) => c.info('server')));
  if (versionAtLeast(version, MIN_REDIS_VERSION)) return;
  throw new RelayError(
    ErrorCode.RedisTooOld,
    `Redis at ${connection.address} (RELAY_REDIS_URL) is version ${version}; shared mode needs ${MIN_REDIS_VERSION.join('.')} or later (streams with XAUTOCLAIM). Upgrade Redis, or point RELAY_REDIS_URL at a newer one.`,
  );
}
