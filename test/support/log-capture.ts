import { type Level, type Logger, pino } from 'pino';
import { createLogger } from '../../src/log/create-logger.js';

/** One pino line as an object. */
export type LogRecord = Record<string, unknown> & { level: number; msg: string };

/** pino's numbers for the levels tests look for. */
export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

/** What {@link captureLog} gives: the logger, and every line it wrote, parsed. */
export interface LogCapture {
  log: Logger;
  records: LogRecord[];
  /** The lines whose message is `msg` (a string: equal; a pattern: matching). */
  said(msg: string | RegExp): LogRecord[];
}

/**
 * A pino logger that keeps every line at `level` and above for assertions. With `TEST_LOG` set
 * (say `TEST_LOG=debug`), the lines are also echoed to stderr, to see what a failing test logged.
 */
export function captureLog(level: Level = 'debug'): LogCapture {
  const records: LogRecord[] = [];
  const echo = process.env.TEST_LOG !== undefined && process.env.TEST_LOG !== 'silent';
  const log = pino(
    { level },
    {
      write(text: string) {
        for (const line of text.split('\n')) if (line) records.push(JSON.parse(line) as LogRecord);
        if (echo) process.stderr.write(text);
      },
    },
  );
  const said = (msg: string | RegExp) =>
    records.filter((r) => (typeof msg === 'string' ? r.msg === msg : msg.test(String(r.msg))));
  return { log, records, said };
}

/** A logger for tests that do not look at the log: silent, or at `TEST_LOG`'s level on stdout. */
export function quietLog(): Logger {
  return pino({ level: process.env.TEST_LOG ?? 'silent' });
}

/** The relay's own logger (its redact paths, its formatting off) at debug, its lines kept parsed. */
export function captureRelayLog(): { log: Logger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const log = createLogger({
    level: 'debug',
    pretty: false,
    write: (text) => {
      for (const line of text.split('\n')) if (line) records.push(JSON.parse(line) as LogRecord);
    },
  });
  return { log, records };
}
