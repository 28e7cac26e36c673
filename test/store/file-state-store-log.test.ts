import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  appendFile,
  lstat,
  mkdir,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { BatchRecord } from '../../src/core/batch/batch-record.js';
import { openFileStateStore } from '../../src/store/file-state-store.js';
import { readStoredRecords } from '../../src/store/read-stored-records.js';
import { runFileName } from '../../src/store/run-file.js';
import { parseRunLog, runLogName } from '../../src/store/run-log.js';
import type { StateStore } from '../../src/store/state-store.js';
import { captureLog, LEVEL } from '../support/log-capture.js';
import { makeRecord } from '../support/make-record.js';
import { tempRootForFile } from '../support/temp-root.js';

const log = pino({ level: 'silent' });
const freshDir = tempRootForFile('file-state-log-');
const RUN = '/runs/a';

const logPath = (dir: string, runDir = RUN) => join(dir, 'runs', runLogName(runDir));
const legacyPath = (dir: string, runDir = RUN) => join(dir, 'runs', runFileName(runDir));

/** The log's lines, without the empty string after the final newline. */
async function linesOf(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8');
  assert.ok(text.endsWith('\n'), 'the log ends in a newline');
  return text.slice(0, -1).split('\n');
}

/** What the state folder holds for the run on disk, parsed as a relay would read it. */
async function onDisk(dir: string, runDir = RUN) {
  const parsed = parseRunLog(await readFile(logPath(dir, runDir), 'utf8'));
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  return parsed.value;
}

/** Each file of a folder and its text, by name: to tell that nothing changed. */
async function filesIn(folder: string): Promise<Record<string, string>> {
  const names = (await readdir(folder)).sort();
  return Object.fromEntries(
    await Promise.all(names.map(async (n) => [n, await readFile(join(folder, n), 'utf8')])),
  );
}

/** `seq` and the draft `q` of each record, to compare without prototypes getting in the way. */
const drafts = (records: Iterable<BatchRecord>) =>
  [...records].map((r) => [r.seq, r.drafts.q]).sort((a, b) => Number(a[0]) - Number(b[0]));

/** Puts batches 1, 2, … of the run, their draft of `q` as given, one put each. */
async function putDrafts(store: StateStore, ...qs: string[]): Promise<void> {
  for (const [i, q] of qs.entries()) await store.put(makeRecord(RUN, i + 1, { drafts: { q } }));
}

/** Runs `body` on a store opened on `dir`, closing it afterwards whatever happens. */
async function withStore<T>(
  dir: string,
  body: (store: StateStore) => Promise<T>,
  logger = log,
): Promise<T> {
  const store = await openFileStateStore(dir, { log: logger });
  try {
    return await body(store);
  } finally {
    await store.close();
  }
}

/** The run's records, `seq` and draft `q`, as a store opened again on `dir` has them. */
const reopened = (dir: string) => withStore(dir, async (store) => drafts(store.forRun(RUN)));

/** A state file in the first format, as relays before the log wrote it. */
function firstFormat(runDir: string, records: BatchRecord[]): string {
  const batches = Object.fromEntries(records.map((r) => [String(r.seq), r]));
  return `${JSON.stringify({ version: 1, runDir, batches }, null, 2)}\n`;
}

describe('the file store keeps each run in an append-only log', () => {
  it('appends one line per put to the same file, and reloads the latest of each record', async () => {
    const dir = await freshDir();
    await withStore(dir, async (store) => {
      await putDrafts(store, 'one', 'two');
      const before = await stat(logPath(dir));
      assert.equal((await linesOf(logPath(dir))).length, 3, 'the header and two records');

      const changed = makeRecord(RUN, 1, { drafts: { q: 'one, changed' } });
      await store.put(changed);
      const after = await stat(logPath(dir));
      assert.equal(after.ino, before.ino, 'the same file, not a new one renamed over it');
      const lines = await linesOf(logPath(dir));
      assert.equal(lines.length, 4, 'one more line');
      assert.deepEqual(JSON.parse(lines[3] as string), JSON.parse(JSON.stringify(changed)));
      assert.equal(after.size, before.size + Buffer.byteLength(`${lines[3]}\n`));
    });
    assert.deepEqual(await reopened(dir), [
      [1, 'one, changed'],
      [2, 'two'],
    ]);
  });

  it('rewrites the log whole once it holds more than 2 × records + 16 lines', async () => {
    const dir = await freshDir();
    await withStore(dir, async (store) => {
      await putDrafts(store, 'click 0', 'other');
      const counts: number[] = [];
      const rewritten: number[] = [];
      for (let click = 1; click <= 40; click += 1) {
        const before = await stat(logPath(dir));
        await store.put(makeRecord(RUN, 1, { drafts: { q: `click ${click}` } }));
        counts.push((await linesOf(logPath(dir))).length - 1);
        // a rewrite makes a new file and renames it over the log; an append keeps the file
        if ((await stat(logPath(dir))).ino !== before.ino) rewritten.push(click);
      }
      // 2 records allow 20 lines: appends up to 20, then one rewrite down to the 2 records
      assert.deepEqual(
        counts.slice(0, 18),
        Array.from({ length: 18 }, (_, i) => i + 3),
      );
      assert.equal(counts[18], 2, 'compacted');
      assert.ok(Math.max(...counts) <= 20, `never more than 20 lines: ${counts.join(' ')}`);
      assert.deepEqual(rewritten, [19, 38]);
      assert.deepEqual(drafts((await onDisk(dir)).batches.values()), [
        [1, 'click 40'],
        [2, 'other'],
      ]);
    });
    assert.deepEqual(await reopened(dir), [
      [1, 'click 40'],
      [2, 'other'],
    ]);
  });

  it('drops a torn last line with a warning, and the next put leaves a whole log', async () => {
    const dir = await freshDir();
    await withStore(dir, async (store) => {
      await putDrafts(store, 'kept', 'kept too');
    });
    // what a power cut in the middle of an append leaves
    await appendFile(logPath(dir), '{"key":"half a rec');

    const capture = captureLog('info');
    await withStore(
      dir,
      async (store) => {
        assert.deepEqual(drafts(store.all()), [
          [1, 'kept'],
          [2, 'kept too'],
        ]);
        const warnings = capture.records.filter((r) => r.level === LEVEL.warn);
        assert.equal(warnings.length, 1);
        assert.equal(warnings[0]?.path, logPath(dir));
        assert.match(String(warnings[0]?.msg), /part of a line/);

        await store.put(makeRecord(RUN, 3, { drafts: { q: 'after' } }));
        const lines = await linesOf(logPath(dir));
        assert.ok(!lines.some((l) => l.includes('half a rec')), 'the torn bytes are gone');
        const log = await onDisk(dir);
        assert.equal(log.tornTail, false);
        assert.deepEqual(drafts(log.batches.values()), [
          [1, 'kept'],
          [2, 'kept too'],
          [3, 'after'],
        ]);
      },
      capture.log,
    );

    const again = captureLog('info');
    await withStore(dir, async (store) => assert.equal(store.all().length, 3), again.log);
    assert.deepEqual(
      again.records.filter((r) => r.level >= LEVEL.warn),
      [],
      'nothing to warn about',
    );
  });

  it('moves aside a log with a bad line before its last, as any corrupt state file', async () => {
    const dir = await freshDir();
    await withStore(dir, async (store) => {
      await store.put(makeRecord(RUN, 1));
      await store.put(makeRecord('/runs/other', 1));
    });
    const [header, record] = await linesOf(logPath(dir));
    const mangled = `${header}\n${record}\n{"key":"oops"\n${record}\n`;
    await writeFile(logPath(dir), mangled);

    const capture = captureLog('info');
    const now = () => new Date('2025-03-04T05:06:07.089Z');
    const store = await openFileStateStore(dir, { log: capture.log, now });
    try {
      assert.deepEqual(
        store.all().map((r) => r.runDir),
        ['/runs/other'],
      );
      const movedTo = `${logPath(dir)}.corrupt-2025-03-04T05-06-07-089Z`;
      assert.equal(await readFile(movedTo, 'utf8'), mangled, 'the bytes are kept');
      const warning = capture.records.find((r) => r.level === LEVEL.warn);
      assert.equal(warning?.path, logPath(dir));
      assert.equal(warning?.movedTo, movedTo);
      assert.match(String(warning?.problem), /^line 3: not valid JSON/);
    } finally {
      await store.close();
    }
  });

  it('loads a file in the first format and replaces it with a log at the first write', async () => {
    const dir = await freshDir();
    await withStore(dir, async () => undefined); // makes the folders
    const old = [makeRecord(RUN, 1, { drafts: { q: 'from v1' } }), makeRecord(RUN, 2)];
    await writeFile(legacyPath(dir), firstFormat(RUN, old));

    await withStore(dir, async (store) => {
      assert.deepEqual(drafts(store.forRun(RUN)), [
        [1, 'from v1'],
        [2, undefined],
      ]);
      assert.deepEqual(
        await readdir(join(dir, 'runs')),
        [runFileName(RUN)],
        'reading changes nothing',
      );

      await store.put(makeRecord(RUN, 3, { drafts: { q: 'new' } }));
      assert.deepEqual(await readdir(join(dir, 'runs')), [runLogName(RUN)]);
      const log = await onDisk(dir);
      assert.equal(log.lines, 3, 'each record once');
      assert.deepEqual(drafts(log.batches.values()), [
        [1, 'from v1'],
        [2, undefined],
        [3, 'new'],
      ]);
    });
    await withStore(dir, async (store) => assert.equal(store.forRun(RUN).length, 3));
  });

  it('a first-format file that will not go fails no save: warned, tried again, the log wins', async () => {
    const dir = await freshDir();
    await withStore(dir, async () => undefined); // makes the folders
    await writeFile(legacyPath(dir), firstFormat(RUN, [makeRecord(RUN, 1)]));
    const capture = captureLog('info');
    await withStore(
      dir,
      async (store) => {
        // in its place now: a folder with something in it, which unlink refuses
        await rm(legacyPath(dir));
        await mkdir(join(legacyPath(dir), 'inside'), { recursive: true });
        await store.put(makeRecord(RUN, 2, { drafts: { q: 'saved' } }));
        await store.put(makeRecord(RUN, 3, { drafts: { q: 'saved too' } }));
        const warned = capture.said(/could not remove a state file its run’s log replaced/);
        assert.equal(warned.length, 2, 'once per save, each trying again');
        assert.equal(warned[0]?.path, legacyPath(dir));
      },
      capture.log,
    );
    const log = await onDisk(dir);
    assert.deepEqual(drafts(log.batches.values()), [
      [1, undefined],
      [2, 'saved'],
      [3, 'saved too'],
    ]);
  });

  it('takes the log over a first-format file left beside it, and removes that file', async () => {
    const dir = await freshDir();
    await withStore(dir, async (store) => {
      await store.put(makeRecord(RUN, 1, { drafts: { q: 'from the log' } }));
    });
    const stale = [makeRecord(RUN, 1, { drafts: { q: 'stale' } }), makeRecord(RUN, 2)];
    await writeFile(legacyPath(dir), firstFormat(RUN, stale));
    assert.deepEqual(drafts(await readStoredRecords(dir)), [[1, 'from the log']], 'doctor too');

    await withStore(dir, async (store) => {
      assert.deepEqual(drafts(store.all()), [[1, 'from the log']]);
      assert.deepEqual(await readdir(join(dir, 'runs')), [runLogName(RUN)]);
    });
  });

  it('readStoredRecords reads the files a start would read, changing nothing', async () => {
    const dir = await freshDir();
    await withStore(dir, async (store) => {
      await store.put(makeRecord('/runs/new', 1, { drafts: { q: 'log' } }));
    });
    await writeFile(
      legacyPath(dir, '/runs/old'),
      firstFormat('/runs/old', [makeRecord('/runs/old', 4)]),
    );
    await appendFile(logPath(dir, '/runs/new'), '{"torn');
    // a log that cannot be read beside a first-format file: a start would read the file
    await writeFile(logPath(dir, '/runs/old'), 'garbage\n');
    const before = await filesIn(join(dir, 'runs'));

    const records = await readStoredRecords(dir);
    assert.deepEqual(records.map((r) => [r.runDir, r.seq]).sort(), [
      ['/runs/new', 1],
      ['/runs/old', 4],
    ]);
    assert.deepEqual(await filesIn(join(dir, 'runs')), before, 'names and bytes alike');
  });

  it('forget removes the log, and a first-format file not yet replaced', async () => {
    const dir = await freshDir();
    await withStore(dir, async (store) => {
      await store.put(makeRecord('/runs/new', 1));
    });
    await writeFile(
      legacyPath(dir, '/runs/old'),
      firstFormat('/runs/old', [makeRecord('/runs/old', 1)]),
    );
    await withStore(dir, async (store) => {
      await store.forget('/runs/new');
      await store.forget('/runs/old');
      assert.deepEqual(store.all(), []);
      assert.deepEqual(await readdir(join(dir, 'runs')), []);
    });
  });

  it('keeps a record saved while its run is being forgotten: the run came back', async () => {
    const dir = await freshDir();
    for (let round = 1; round <= 5; round += 1) {
      await withStore(dir, async (store) => {
        const gone = store.put(makeRecord(RUN, 1, { drafts: { q: 'before' } }));
        const forgotten = store.forget(RUN);
        const back = store.put(makeRecord(RUN, 2, { drafts: { q: `back ${round}` } }));
        await Promise.all([gone, forgotten, back]);
        assert.deepEqual(drafts(store.forRun(RUN)), [[2, `back ${round}`]]);
      });
      await withStore(dir, async (store) => {
        assert.deepEqual(drafts(store.forRun(RUN)), [[2, `back ${round}`]], `round ${round}`);
        await store.forget(RUN);
      });
    }
  });

  const replacements: [string, (path: string, dir: string) => Promise<void>][] = [
    ['removed', (path) => rm(path)],
    [
      'replaced by a symlink',
      async (path, dir) => {
        await writeFile(join(dir, 'elsewhere'), 'not ours');
        await rm(path);
        await symlink(join(dir, 'elsewhere'), path);
      },
    ],
    [
      'replaced by a FIFO',
      async (path) => {
        await rm(path);
        execFileSync('mkfifo', [path]);
      },
    ],
  ];
  for (const [what, replace] of replacements) {
    it(`writes a log ${what} while the relay runs again whole, header first`, async () => {
      const dir = await freshDir();
      await withStore(dir, async (store) => {
        await store.put(makeRecord(RUN, 1));
        await replace(logPath(dir), dir);
        await store.put(makeRecord(RUN, 2));
        assert.ok((await lstat(logPath(dir))).isFile(), 'a plain file again');
        assert.deepEqual(drafts((await onDisk(dir)).batches.values()), [
          [1, undefined],
          [2, undefined],
        ]);
      });
      if (what.includes('symlink')) {
        assert.equal(await readFile(join(dir, 'elsewhere'), 'utf8'), 'not ours');
      }
    });
  }
});
