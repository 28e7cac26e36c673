import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { BatchRecord } from '../../src/core/batch/batch-record.js';
import { ErrorCode } from '../../src/errors.js';
import { openFileStateStore, StateDirLockedError } from '../../src/store/file-state-store.js';
import { parseRunLog, runLogName } from '../../src/store/run-log.js';
import { captureLog } from '../support/log-capture.js';
import { makeRecord } from '../support/make-record.js';
import { tempRootForFile } from '../support/temp-root.js';

const log = pino({ level: 'silent' });

const freshDir = tempRootForFile('file-state-store-');

/** A fresh state folder holding one record, batch 1 of /runs/a, written by a store now closed. */
async function stateWithRunA(): Promise<string> {
  const dir = await freshDir();
  const store = await openFileStateStore(dir, { log });
  await store.put(makeRecord('/runs/a', 1));
  await store.close();
  return dir;
}

/** A logger that keeps what it logs, to check that problems are reported. */
function capturingLogger() {
  const { log: logger, records: entries } = captureLog('info');
  return { logger, entries };
}

describe('openFileStateStore', () => {
  it('creates a missing state folder and gives back what was put after close and reopen', async () => {
    const dir = join(await freshDir(), 'nested', 'state');
    const store = await openFileStateStore(dir, { log });
    const a1 = makeRecord('/runs/a', 1, {
      status: 'answered',
      drafts: { format: 'JSON', tags: ['x', 'y'], ok: true },
      presentation: { channel: 'C123', ts: '1700000000.000100', blocks: [{ n: 1 }] },
      answeredBy: 'U42',
      answeredAt: '2025-01-02T00:00:00.000Z',
    });
    const a2 = makeRecord('/runs/a', 2, {
      status: 'submitting',
      problem: 'EACCES writing q-answers-002.json',
      note: 'seq 1 was skipped',
    });
    const b1 = makeRecord('/runs/b with space/é', 1, { status: 'malformed' });
    await Promise.all([store.put(a2), store.put(a1), store.put(b1)]);
    assert.deepEqual(store.get(a1.key), a1);
    await store.close();

    const reopened = await openFileStateStore(dir, { log });
    try {
      assert.deepEqual(reopened.get(a1.key), a1);
      assert.deepEqual(reopened.get(b1.key), b1);
      assert.deepEqual(reopened.forRun('/runs/a'), [a1, a2]);
      assert.deepEqual(reopened.forRun('/runs/nowhere'), []);
      assert.equal(reopened.all().length, 3);
      assert.equal(reopened.get('no-such-key'), undefined);
    } finally {
      await reopened.close();
    }
  });

  it('reopens 10,000 records spread over 1,000 runs', { timeout: 300_000 }, async () => {
    const dir = await freshDir();
    const store = await openFileStateStore(dir, { log });
    const puts: Promise<void>[] = [];
    for (let run = 0; run < 1000; run += 1) {
      for (let seq = 1; seq <= 10; seq += 1) {
        puts.push(
          store.put(makeRecord(`/work/runs/run-${run}`, seq, { drafts: { q: `answer ${seq}` } })),
        );
      }
    }
    await Promise.all(puts);
    await store.close();
    assert.equal((await readdir(join(dir, 'runs'))).length, 1000);

    const reopened = await openFileStateStore(dir, { log });
    try {
      assert.equal(reopened.all().length, 10_000);
      const run = reopened.forRun('/work/runs/run-637');
      assert.deepEqual(
        run.map((r) => r.seq),
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      );
      assert.deepEqual(run[4], makeRecord('/work/runs/run-637', 5, { drafts: { q: 'answer 5' } }));
    } finally {
      await reopened.close();
    }
  });

  it('resolves every one of many rapid puts and ends with the last state on disk', async () => {
    const dir = await freshDir();
    const store = await openFileStateStore(dir, { log });
    const puts: Promise<void>[] = [];
    let last: BatchRecord | undefined;
    for (let click = 1; click <= 300; click += 1) {
      last = makeRecord('/runs/clicky', 1 + (click % 3), {
        drafts: { pick: `option ${click}` },
        updatedAt: new Date(Date.UTC(2025, 0, 1, 0, 0, click)).toISOString(),
      });
      puts.push(store.put(last));
      assert.deepEqual(store.get(last.key), last, 'memory is updated at once');
    }
    await Promise.all(puts);

    const text = await readFile(join(dir, 'runs', runLogName('/runs/clicky')), 'utf8');
    const parsed = parseRunLog(text);
    assert.ok(parsed.ok, 'the log parses');
    const file = parsed.value;
    assert.equal(file.runDir, '/runs/clicky');
    assert.equal(file.tornTail, false);
    assert.ok(last);
    assert.deepEqual(file.batches.get(last.seq), store.get(last.key));
    assert.deepEqual({ ...file.batches.get(2)?.drafts }, { pick: 'option 298' });
    assert.deepEqual({ ...file.batches.get(3)?.drafts }, { pick: 'option 299' });
    assert.deepEqual({ ...file.batches.get(1)?.drafts }, { pick: 'option 300' });
    assert.ok(file.lines <= 2 * 3 + 16, `compacted as it grew (${file.lines} lines)`);
    await store.close();
    assert.deepEqual((await readdir(join(dir, 'runs'))).sort(), [runLogName('/runs/clicky')]);
  });

  it('keeps its own copy: changing a record after put does not change the stored one', async () => {
    const dir = await freshDir();
    const store = await openFileStateStore(dir, { log });
    const record = makeRecord('/runs/a', 1, { drafts: { q: 'first' } });
    const saved = store.put(record);
    record.drafts.q = 'changed later';
    await saved;
    assert.deepEqual({ ...store.get(record.key)?.drafts }, { q: 'first' });
    await store.close();
  });

  it('rejects a record that would not load back, without storing it', async () => {
    const dir = await freshDir();
    const store = await openFileStateStore(dir, { log });
    const bad = { ...makeRecord('/runs/a', 1), seq: 1.5 };
    await assert.rejects(store.put(bad), /not a valid batch record[\s\S]*seq/);
    const circular = makeRecord('/runs/a', 2, { presentation: {} });
    (circular.presentation as Record<string, unknown>).self = circular.presentation;
    await assert.rejects(store.put(circular), /cannot be saved as JSON/);
    assert.deepEqual(store.all(), []);
    await store.close();
  });

  it('moves a corrupt run file aside, says so in the log, and loads the rest', async () => {
    const dir = await freshDir();
    const store = await openFileStateStore(dir, { log });
    const good = makeRecord('/runs/good', 1);
    await store.put(good);
    await store.put(makeRecord('/runs/mangled', 1));
    await store.put(makeRecord('/runs/wrong-shape', 4));
    await store.close();

    const runs = join(dir, 'runs');
    const mangled = join(runs, runLogName('/runs/mangled'));
    await writeFile(mangled, '{"version":2,"runDir":"/runs/mang');
    const wrongShape = join(runs, runLogName('/runs/wrong-shape'));
    const [header, line] = (await readFile(wrongShape, 'utf8')).split('\n');
    const shaped = JSON.parse(line as string);
    shaped.status = 'lost-in-space';
    await writeFile(wrongShape, `${header}\n${JSON.stringify(shaped)}\n`);

    const { logger, entries } = capturingLogger();
    const now = () => new Date('2025-03-04T05:06:07.089Z');
    const reopened = await openFileStateStore(dir, { log: logger, now });
    try {
      assert.deepEqual(reopened.all(), [good]);
      const names = (await readdir(runs)).sort();
      const stamp = '2025-03-04T05-06-07-089Z';
      assert.deepEqual(
        names,
        [
          runLogName('/runs/good'),
          `${runLogName('/runs/mangled')}.corrupt-${stamp}`,
          `${runLogName('/runs/wrong-shape')}.corrupt-${stamp}`,
        ].sort(),
      );
      assert.equal(
        await readFile(`${mangled}.corrupt-${stamp}`, 'utf8'),
        '{"version":2,"runDir":"/runs/mang',
        'the bytes are kept for inspection',
      );
      const warnings = entries.filter((e) => e.level === 40);
      assert.equal(warnings.length, 2);
      const byPath = new Map(warnings.map((w) => [w.path, w]));
      assert.match(String(byPath.get(mangled)?.problem), /not valid JSON/);
      assert.match(String(byPath.get(wrongShape)?.problem), /^line 2: .*status/);
      assert.equal(byPath.get(wrongShape)?.movedTo, `${wrongShape}.corrupt-${stamp}`);

      // the run whose file was moved aside starts afresh and is written again
      await reopened.put(makeRecord('/runs/mangled', 2));
      assert.deepEqual(
        reopened.forRun('/runs/mangled').map((r) => r.seq),
        [2],
      );
    } finally {
      await reopened.close();
    }
  });

  it('moves aside a file whose name does not match its runDir', async () => {
    const dir = await stateWithRunA();
    const runs = join(dir, 'runs');
    const text = await readFile(join(runs, runLogName('/runs/a')), 'utf8');
    await writeFile(join(runs, 'renamed-by-hand.jsonl'), text);

    const { logger, entries } = capturingLogger();
    const reopened = await openFileStateStore(dir, { log: logger });
    try {
      assert.equal(reopened.all().length, 1);
      assert.ok((await readdir(runs)).some((n) => n.startsWith('renamed-by-hand.jsonl.corrupt-')));
      assert.match(
        String(entries.find((e) => e.level === 40)?.problem),
        /does not match its runDir/,
      );
    } finally {
      await reopened.close();
    }
  });

  it('removes temp files a crash left in the state folder', async () => {
    const dir = await stateWithRunA();
    const leftover = `.${runLogName('/runs/a')}.12345.abcdef.tmp`;
    await writeFile(join(dir, 'runs', leftover), '{"half');

    const reopened = await openFileStateStore(dir, { log });
    try {
      assert.equal(reopened.all().length, 1);
      assert.deepEqual(await readdir(join(dir, 'runs')), [runLogName('/runs/a')]);
    } finally {
      await reopened.close();
    }
  });

  it('refuses puts after close, and close can be called twice', async () => {
    const dir = await freshDir();
    const store = await openFileStateStore(dir, { log });
    await store.close();
    await store.close();
    await assert.rejects(store.put(makeRecord('/runs/a', 1)), /is closed/);
  });

  it('fails with the folder and a hint when the state folder cannot be created', async () => {
    const dir = await freshDir();
    await writeFile(join(dir, 'plain-file'), '');
    await assert.rejects(
      openFileStateStore(join(dir, 'plain-file', 'state'), { log }),
      /Creating the state folder .*plain-file\/state\/runs failed: ENOTDIR.*is a file, not a folder/,
    );
  });

  it('exports the lock error class for the CLI', () => {
    const error = new StateDirLockedError('/state', 99);
    assert.equal(error.code, ErrorCode.StateLocked);
    assert.match(error.message, /another relay \(pid 99\) is using \/state/);
  });
});
