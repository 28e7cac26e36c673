const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};

const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'msg']);

/** `13:00:00+01:00`: the time of day where the relay runs, with its offset from UTC. */
function localTime(ms: number): string {
  const at = new Date(ms);
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  const offset = -at.getTimezoneOffset();
  const zone = `${offset < 0 ? '-' : '+'}${pad(offset / 60)}:${pad(offset % 60)}`;
  return `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}${zone}`;
}

/**
 * Turns one pino JSON line into `13:00:00+01:00 INFO  message key=value …` for people at a
 * terminal. Kept rather than pino-pretty: this is all a terminal needs, in one function and no
 * worker thread or further dependencies; JSON lines (not a terminal) are left as they are.
 */
export function formatLogLine(jsonLine: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(jsonLine) as Record<string, unknown>;
  } catch {
    return jsonLine;
  }
  const time = localTime(Number(entry.time));
  const level = LEVEL_NAMES[Number(entry.level)] ?? String(entry.level);
  const fields = Object.entries(entry)
    .filter(([key]) => !HIDDEN.has(key) && key !== 'err')
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const err = entry.err as { message?: string; stack?: string } | undefined;
  const stack = err ? (err.stack ?? err.message ?? '') : undefined;
  const tail = stack === undefined ? '' : `\n    ${stack.replaceAll('\n', '\n    ')}`;
  return `${time} ${level} ${String(entry.msg ?? '')}${fields.length ? `  ${fields.join(' ')}` : ''}${tail}\n`;
}
