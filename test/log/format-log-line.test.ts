import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatLogLine } from '../../src/log/format-log-line.js';

test('a log line for a terminal: local time with its offset, level, message, fields, the error stack', () => {
  const time = Date.UTC(2026, 2, 1, 12, 0, 5);
  const line = formatLogLine(
    JSON.stringify({
      level: 40,
      time,
      pid: 1,
      msg: 'could not show the batch',
      runDir: '/runs/a',
      seq: 2,
      err: { message: 'boom', stack: 'Error: boom\n    at x' },
    }),
  );
  const at = new Date(time);
  const two = (n: number) => String(Math.abs(n)).padStart(2, '0');
  const offset = -at.getTimezoneOffset();
  const zone = `${offset < 0 ? '-' : '+'}${two(Math.trunc(offset / 60))}:${two(offset % 60)}`;
  const clock = `${two(at.getHours())}:${two(at.getMinutes())}:05${zone}`;
  assert.equal(
    line,
    `${clock} WARN  could not show the batch  runDir=/runs/a seq=2\n    Error: boom\n        at x\n`,
  );
  assert.equal(formatLogLine('not json'), 'not json', 'anything else passes as it is');
});
