import { redactRedisUrl, redisAddress } from './redis-url.js';

/** Why Redis could not be used, as far as the relay can tell. */
export type RedisFailureKind = 'unreachable' | 'auth' | 'tls' | 'loading' | 'other';

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'EADDRNOTAVAIL',
]);

// node-redis's own names for a connection that failed or went away
const UNREACHABLE_ERRORS = new Set([
  'ConnectionTimeoutError',
  'SocketClosedUnexpectedlyError',
  'SocketTimeoutError',
  'ClientOfflineError',
  'ClientClosedError',
  'TimeoutError',
]);

/** Sorts an error met while connecting to Redis or sending it a command. */
export function classifyRedisFailure(error: unknown): RedisFailureKind {
  const { name, code, message } = describe(error);
  if (/^(WRONGPASS|NOAUTH|NOPERM)\b/.test(message) || /AUTH.*without any password/.test(message)) {
    return 'auth';
  }
  if (/^LOADING\b/.test(message)) return 'loading';
  if (/CERT|SSL|TLS/.test(code) || /certificate|SSL routines|TLS/.test(message)) return 'tls';
  if (UNREACHABLE_CODES.has(code) || UNREACHABLE_ERRORS.has(name)) return 'unreachable';
  return 'other';
}

/** One short phrase for an error: its code, or its message's first line. */
export function failureReason(error: unknown): string {
  const { code, message } = describe(error);
  const first = message.split('\n')[0]?.trim() ?? '';
  if (code !== '' && !first.includes(code)) return first === '' ? code : `${code}: ${first}`;
  return first === '' ? String(error) : first;
}

/** What went wrong reaching Redis at `url`, and what to change; never the password. */
export function describeRedisFailure(
  url: string,
  error: unknown,
): { problem: string; fix: string } {
  const where = `Redis at ${redisAddress(url)} (RELAY_REDIS_URL=${redactRedisUrl(url)})`;
  const reason = failureReason(error);
  switch (classifyRedisFailure(error)) {
    case 'auth':
      return {
        problem: `${where} refused the relay's credentials (${reason})`,
        fix: 'Fix the user name and password in RELAY_REDIS_URL (redis://user:password@host:port; a password alone: redis://:password@host:port)',
      };
    case 'tls':
      return {
        problem: `The TLS connection to ${where} failed (${reason})`,
        fix: 'Check that the server speaks TLS when the URL starts with rediss:// (and plain Redis with redis://), and that its certificate is trusted here (NODE_EXTRA_CA_CERTS)',
      };
    case 'unreachable':
      return {
        problem: `${where} cannot be reached (${reason})`,
        fix: `Check that Redis is running there and that this machine may connect to it, or fix the host and port in RELAY_REDIS_URL${url.startsWith('rediss:') ? ' (with rediss://, also that the port speaks TLS: a plain Redis never answers a TLS greeting)' : ''}`,
      };
    case 'loading':
      return {
        problem: `${where} is still loading its data (${reason})`,
        fix: 'Wait until Redis has finished loading',
      };
    default:
      return {
        problem: `${where} could not be used (${reason})`,
        fix: 'Check the server and RELAY_REDIS_URL',
      };
  }
}

/**
 * What to tell someone whose relay could not reach Redis at start: what failed, where, and
 * what to change. Names `RELAY_REDIS_URL`, whose password stays hidden.
 */
export function startFailureMessage(url: string, error: unknown): string {
  const { problem, fix } = describeRedisFailure(url, error);
  return `${problem}. ${fix}, then start again.`;
}

function describe(error: unknown): { name: string; code: string; message: string } {
  if (!(error instanceof Error)) return { name: '', code: '', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return {
    name: error.constructor.name === 'Error' ? error.name : error.constructor.name,
    code: typeof code === 'string' ? code : '',
    message: error.message,
  };
}
