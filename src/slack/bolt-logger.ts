import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from 'pino';

/** Lets Bolt and the Slack SDK log through the relay's pino logger. */
export function toBoltLogger(log: Logger): BoltLogger {
  let level = LogLevel.INFO;
  const line = (parts: unknown[]) =>
    parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' ');
  return {
    debug: (...msg: unknown[]) => log.debug(line(msg)),
    info: (...msg: unknown[]) => log.info(line(msg)),
    warn: (...msg: unknown[]) => log.warn(line(msg)),
    error: (...msg: unknown[]) => log.error(line(msg)),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
