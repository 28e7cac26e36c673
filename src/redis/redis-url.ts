/**
 * `RELAY_REDIS_URL`: `redis://` or `rediss://` (TLS), optional `user:password@`, a host, an
 * optional port and database number. Nothing here ever puts the password in a message.
 */

const SCHEMES = ['redis:', 'rediss:'] as const;

/** What is wrong with a Redis URL, in words that never quote its password; undefined if fine. */
export function redisUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a URL; give one like redis://host:6379, rediss://user:password@host:6380 for TLS';
  }
  if (!(SCHEMES as readonly string[]).includes(url.protocol)) {
    return `must start with redis:// or rediss:// (TLS), not ${url.protocol}//`;
  }
  if (url.hostname === '') return 'has no host; give one like redis://host:6379';
  const db = url.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,5}$/.test(db)) {
    return 'has a path that is not a database number; give one like redis://host:6379/0, or leave the path out';
  }
  if (url.search !== '' || url.hash !== '') {
    return 'has a query or a fragment, which the relay does not read; leave them out';
  }
  return undefined;
}

/** The URL as it may be logged or shown: the password replaced by `***`. */
export function redactRedisUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.password !== '') url.password = '***';
    return url.href;
  } catch {
    return '(not a URL)';
  }
}

/** `host:port` of a Redis URL, for messages ("Redis at host:port"). */
export function redisAddress(text: string): string {
  const url = new URL(text);
  return `${url.hostname}:${url.port === '' ? '6379' : url.port}`;
}

/** Whether a password in this URL crosses the network in plain text (redis:// off loopback). */
export function plainTextPassword(text: string): boolean {
  const url = new URL(text);
  return url.password !== '' && url.protocol === 'redis:' && !isLoopback(url.hostname);
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
}
