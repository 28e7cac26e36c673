import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { openNoticeBook } from '../../src/store/notice-book.js';
import { captureLog } from '../support/log-capture.js';
import { makeTempDir } from '../support/temp-dir.js';

const now = () => new Date('2025-03-04T05:06:07.000Z');

function capturingLog() {
  const { log, records: lines } = captureLog('warn');
  return { lines, log };
}

describe('notice book', () => {
  test('keeps notices across a reopen until their cause is gone', async (t) => {
    const { dir, cleanup } = await makeTempDir();
    t.after(cleanup);
    const { log } = capturingLog();
    const book = await openNoticeBook(dir, log, now);
    await book.add('look-alike', '/runs/a/qa/q-out-0001.json');
    await book.add('unreadable', '/runs/b/qa');
    const again = await openNoticeBook(dir, log, now);
    assert.equal(again.has('look-alike', '/runs/a/qa/q-out-0001.json'), true);
    assert.equal(again.has('unreadable', '/runs/b/qa'), true);
    assert.equal(again.has('look-alike', '/runs/b/qa'), false, 'kinds are apart');
    await again.remove('look-alike', (p) => p.startsWith('/runs/a/'));
    const third = await openNoticeBook(dir, log, now);
    assert.equal(third.has('look-alike', '/runs/a/qa/q-out-0001.json'), false);
    assert.deepEqual(JSON.parse(await readFile(path.join(dir, 'notices.json'), 'utf8')), {
      version: 1,
      notices: [{ kind: 'unreadable', path: '/runs/b/qa', at: '2025-03-04T05:06:07.000Z' }],
    });
  });

  test('starts empty, with a warning, when the file is garbage or a FIFO', async (t) => {
    const { dir, cleanup } = await makeTempDir();
    t.after(cleanup);
    const { lines, log } = capturingLog();
    await writeFile(path.join(dir, 'notices.json'), '{"version": 2}');
    const book = await openNoticeBook(dir, log, now);
    assert.equal(book.has('unreadable', '/x'), false);
    await book.add('unreadable', '/x');
    assert.equal((await openNoticeBook(dir, log, now)).has('unreadable', '/x'), true);

    const fifoDir = path.join(dir, 'fifo');
    execFileSync('mkdir', [fifoDir]);
    execFileSync('mkfifo', [path.join(fifoDir, 'notices.json')]);
    await openNoticeBook(fifoDir, log, now); // must not hang
    assert.deepEqual(
      lines.map((l) => l.msg),
      [
        'the notices file is not valid; starting without it',
        'not reading the notices file; starting without it',
      ],
    );
  });
});
