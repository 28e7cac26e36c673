// Another provider's answer file is read again until it parses; one that stops changing
// without parsing is given up on after the settle window. The clock is handed in, so what
// "stays unchanged for the window" means is checked without waiting for it.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { pino } from 'pino';
import type { BatchRecord } from '../../src/core/batch/batch-record.js';
import { answerPath } from '../../src/core/protocol/run-folder.js';
import { createElsewhereAnswers } from '../../src/queue/elsewhere-answers.js';
import { makeRecord } from '../support/make-record.js';
import { repoFile } from '../support/project-paths.js';
import { makeTempDir } from '../support/temp-dir.js';

const SETTLE_MS = 1000;
const WHOLE = repoFile('test/fixtures/answer-files/valid/protocol-example/q-answers-001.json');

describe('answers from another provider', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let run: string;
  let whole: string;

  beforeEach(async () => {
    ({ dir: root, cleanup } = await makeTempDir());
    run = path.join(root, 'run-a');
    await mkdir(path.join(run, 'qa'), { recursive: true });
    whole = await readFile(WHOLE, 'utf8');
  });
  afterEach(() => cleanup());

  /** Batch 1 of the run, answered elsewhere, its answers not read whole yet; a clock at 0. */
  function setUp() {
    const records = new Map<string, BatchRecord>();
    const record = makeRecord(run, 1, { status: 'answered-elsewhere', answersPending: true });
    records.set(record.key, record);
    let at = 0;
    const lookAgain: number[] = [];
    const posted: string[] = [];
    const warned: Record<string, unknown>[] = [];
    const log = pino(
      { level: 'warn' },
      { write: (line: string) => warned.push(JSON.parse(line) as Record<string, unknown>) },
    );
    const elsewhere = createElsewhereAnswers({
      store: { forRun: (runDir) => [...records.values()].filter((r) => r.runDir === runDir) },
      async change(key, fn) {
        const current = records.get(key);
        const next = current && fn(current);
        if (next) records.set(key, next);
        return next;
      },
      log,
      now: () => new Date(at),
      settleMs: SETTLE_MS,
      lookAgain: (runDir, ms) => {
        assert.equal(runDir, run);
        lookAgain.push(ms);
      },
      post: async (text) => {
        posted.push(text);
      },
    });
    return {
      elsewhere,
      pending: () => records.get(record.key)?.answersPending === true,
      /** Moves the clock on by `ms`. */
      tick: (ms: number) => {
        at += ms;
      },
      lookAgain,
      posted,
      warned,
    };
  }

  const write = (text: string) => writeFile(answerPath(run, 1), text);

  test('a half-written file is "not yet"; once whole it is read, even after the window', async () => {
    const s = setUp();
    await write(whole.slice(0, Math.floor(whole.length / 2)));
    await s.elsewhere.settle(run);
    assert.equal(s.pending(), true, 'not yet: the answers are not shown');
    assert.deepEqual(s.lookAgain, [SETTLE_MS], 'read again after the window');

    // the provider is slow: it finishes writing only after the window has passed
    s.tick(SETTLE_MS * 3);
    await write(whole);
    await s.elsewhere.settle(run);
    assert.equal(s.pending(), false, 'whole: the answers are shown');
    assert.deepEqual(s.lookAgain, [SETTLE_MS], 'nothing more to look at');
    assert.deepEqual(s.posted, []);
    assert.deepEqual(s.warned, []);
  });

  test('a file that keeps changing is read again until it parses, never given up on', async () => {
    const s = setUp();
    for (const end of [10, 40, 80, 120]) {
      await write(whole.slice(0, end));
      await s.elsewhere.settle(run);
      assert.equal(s.pending(), true, `not yet at ${end} characters`);
      s.tick(SETTLE_MS * 2); // a slow writer: each change comes after the window
    }
    await write(whole);
    await s.elsewhere.settle(run);
    assert.equal(s.pending(), false);
    assert.deepEqual(s.posted, []);
    assert.deepEqual(s.warned, []);
  });

  test('a file unchanged for the whole window without parsing is given up on, once, with the reason', async () => {
    const s = setUp();
    await write('{"seq": 1, "answers": [');
    await s.elsewhere.settle(run);
    s.tick(SETTLE_MS - 1);
    await s.elsewhere.settle(run);
    assert.equal(s.pending(), true, 'still inside the window');
    assert.deepEqual(s.posted, []);

    s.tick(1);
    await s.elsewhere.settle(run);
    assert.equal(s.pending(), false, 'given up on: shown without its answers');
    assert.equal(s.posted.length, 1);
    assert.match(
      s.posted[0] ?? '',
      /^Run run-a, batch 1 was answered in another tool, but its answer file does not follow the Q&A protocol/,
    );
    assert.match(s.posted[0] ?? '', /invalid JSON at line 1/);
    assert.deepEqual(
      s.warned.map((line) => [line.msg, line.file]),
      [
        [
          "another provider's answer file does not follow the protocol; its answers are not shown",
          answerPath(run, 1),
        ],
      ],
    );

    await s.elsewhere.settle(run);
    assert.equal(s.posted.length, 1, 'told once');
  });

  test('no file (it was removed) needs no waiting: the batch is shown without answers', async () => {
    const s = setUp();
    await s.elsewhere.settle(run);
    assert.equal(s.pending(), false);
    assert.deepEqual(s.lookAgain, []);
  });
});
