import { type DestinationStream, type Level, type Logger, pino } from 'pino';
import { formatLogLine } from './format-log-line.js';

/** Builds the relay's logger: JSON lines, or short readable lines when `pretty` (a terminal). */
export function createLogger(opts: {
  level: Level | 'silent';
  pretty: boolean;
  write?: (line: string) => void;
}): Logger {
  const write = opts.write ?? ((line: string) => process.stdout.write(line));
  const destination: DestinationStream = {
    write: opts.pretty ? (line) => write(formatLogLine(line)) : (line) => write(line),
  };
  return pino(
    {
      level: opts.level,
      base: { pid: process.pid },
      redact: {
        paths: [
          'token',
          '*.token',
          'botToken',
          'appToken',
          'signingSecret',
          // RELAY_REDIS_URL may carry a password; log redactRedisUrl(url) instead
          'redisUrl',
          '*.redisUrl',
          'headers.authorization',
          // what the Slack SDK logs goes under `args` (see slack/transport/bolt-logger.ts)
          'args[*].token',
          'args[*].headers.authorization',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
