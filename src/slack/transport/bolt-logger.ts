import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from 'pino';

/** The message of an SDK log call that had no text of its own. */
export const SDK_LOG_MESSAGE = 'slack sdk';

/**
 * Turns the SDK's `console`-style arguments into pino's object-first call. Strings make the
 * message; an Error goes under `err` so pino serializes it (JSON.stringify gives `{}`); any
 * other values stay objects under `args`, where the logger's `redact` paths can reach them.
 */
function toPinoCall(parts: unknown[]): [Record<string, unknown>, string] {
  const strings: string[] = [];
  const args: unknown[] = [];
  let err: Error | undefined;
  for (const part of parts) {
    if (typeof part === 'string') strings.push(part);
    else if (part instanceof Error && err === undefined) err = part;
    else args.push(part);
  }
  const fields: Record<string, unknown> = {};
  if (err !== undefined) fields.err = err;
  if (args.length > 0) fields.args = args;
  return [fields, strings.length > 0 ? strings.join(' ') : SDK_LOG_MESSAGE];
}

/**
 * What the SDK logs at every attempt of something it retries by itself: a Web API request
 * that got no answer, and each step of a Socket Mode reconnection. The relay logs an outage
 * once, when it starts and when it ends (src/ops), so these are only debug lines.
 */
const RETRIED_BY_THE_SDK = [
  /^http request failed\b/,
  /^Failed to retrieve a new WSS URL\b/,
  /^WebSocket error\b/,
  /^Peer did not complete the close handshake\b/,
];

/** Lets Bolt and the Slack SDK log through the relay's pino logger, redaction included. */
export function toBoltLogger(log: Logger): BoltLogger {
  let level = LogLevel.INFO;
  const unlessRetried =
    (write: (fields: Record<string, unknown>, message: string) => void) =>
    (...msg: unknown[]) => {
      const [fields, message] = toPinoCall(msg);
      if (RETRIED_BY_THE_SDK.some((pattern) => pattern.test(message))) log.debug(fields, message);
      else write(fields, message);
    };
  return {
    debug: (...msg: unknown[]) => log.debug(...toPinoCall(msg)),
    info: (...msg: unknown[]) => log.info(...toPinoCall(msg)),
    warn: unlessRetried((fields, message) => log.warn(fields, message)),
    error: unlessRetried((fields, message) => log.error(fields, message)),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
