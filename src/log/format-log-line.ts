const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};

const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'msg']);

/** Turns one pino JSON line into `12:00:00 INFO  message key=value …` for people at a terminal. */
export function formatLogLine(jsonLine: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(jsonLine) as Record<string, unknown>;
  } catch {
    return jsonLine;
  }
  const time = new Date(Number(entry.time)).toISOString().slice(11, 19);
  const level = LEVEL_NAMES[Number(entry.level)] ?? String(entry.level);
  const fields = Object.entries(entry)
    .filter(([key]) => !HIDDEN.has(key) && key !== 'err')
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const err = entry.err as { message?: string; stack?: string } | undefined;
  const tail = err ? `\n    ${err.stack ?? err.message ?? ''}`.replaceAll('\n', '\n    ') : '';
  return `${time} ${level} ${String(entry.msg ?? '')}${fields.length ? `  ${fields.join(' ')}` : ''}${tail}\n`;
}
