import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { parseQaFileName } from '../../src/core/protocol/run-folder.js';
import { ErrorCode } from '../../src/errors.js';
import { tempPathBeside } from '../../src/fs/durable-io.js';
import { FileWriteError } from '../../src/fs/file-write-error.js';
import { publishFileNoClobber } from '../../src/fs/publish-file.js';
import { NODE_LOADER_ARGS, projectModule } from '../support/project-paths.js';
import { raceContent } from '../support/publish/race-content.js';
import { waitFor } from '../support/wait.js';

const WRITER_SCRIPT = projectModule('test/support/publish/race-writer');
const WRITERS = 8;
const ROUNDS = 3;
const BIG = 1024 * 1024;

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'publish-file-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

async function freshDir(): Promise<string> {
  return mkdtemp(join(root, 'qa-'));
}

interface Writer {
  child: ChildProcessWithoutNullStreams;
  lines: string[];
  exited: Promise<number | null>;
}

function startWriter(dir: string, writer: number): Writer {
  const child = spawn(
    process.execPath,
    [...NODE_LOADER_ARGS, WRITER_SCRIPT, dir, String(writer), String(BIG)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      if (code !== 0) process.stderr.write(`race writer ${writer} exited ${code}: ${stderr}\n`);
      resolve(code);
    });
  });
  return { child, lines, exited };
}

/** Reads `path` over and over until stopped, recording anything that is not a whole answer. */
function startReader(path: string, expected: ReadonlySet<string>) {
  const problems: string[] = [];
  let wholeReads = 0;
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(String(error));
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      try {
        JSON.parse(text);
      } catch {
        problems.push(`partial JSON of ${text.length} bytes`);
        continue;
      }
      if (!expected.has(text)) problems.push(`unexpected content of ${text.length} bytes`);
      else wholeReads += 1;
    }
  })();
  return {
    problems,
    wholeReads: () => wholeReads,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

describe('publishFileNoClobber', () => {
  it(`lets exactly one of ${WRITERS} processes publish, and readers never see a partial file`, {
    timeout: 180_000,
  }, async () => {
    const dir = await freshDir();
    const contents = new Set(Array.from({ length: WRITERS }, (_, w) => raceContent(w, BIG)));
    const writers = Array.from({ length: WRITERS }, (_, w) => startWriter(dir, w));
    try {
      await waitFor(
        () => writers.every((w) => w.lines.includes('ready')),
        'every race writer to print "ready"',
        120_000,
      );
      for (let round = 1; round <= ROUNDS; round += 1) {
        const name = `q-answers-${String(round).padStart(3, '0')}.json`;
        const reader = startReader(join(dir, name), contents);
        for (const w of writers) w.child.stdin.write(`go ${name}\n`);
        const results = () =>
          writers.flatMap((w) =>
            w.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)),
          );
        await waitFor(
          () => results().filter((r) => r.name === name).length === WRITERS,
          `all writers to report round ${round}`,
        );
        await waitFor(() => reader.wholeReads() > 0, 'the reader to see the file once');
        await reader.stop();

        const round_ = results().filter((r) => r.name === name);
        assert.deepEqual(
          round_.filter((r) => r.error !== undefined),
          [],
          'no writer failed',
        );
        const winners = round_.filter((r) => r.outcome === 'published');
        assert.equal(winners.length, 1, `one winner in round ${round}: ${JSON.stringify(round_)}`);
        assert.equal(round_.filter((r) => r.outcome === 'exists').length, WRITERS - 1);
        const text = await readFile(join(dir, name), 'utf8');
        assert.equal(text, raceContent(winners[0].writer, BIG), 'file holds the winner content');
        assert.deepEqual(reader.problems, [], 'the reader only ever saw whole files');
      }
      const names = (await readdir(dir)).sort();
      assert.deepEqual(
        names,
        Array.from(
          { length: ROUNDS },
          (_, i) => `q-answers-${String(i + 1).padStart(3, '0')}.json`,
        ),
        'no temp files remain',
      );
    } finally {
      for (const w of writers) w.child.stdin.end('exit\n');
      const codes = await Promise.all(writers.map((w) => w.exited));
      assert.deepEqual(
        codes,
        writers.map(() => 0),
      );
    }
  });

  it('lets exactly one of many concurrent calls in one process publish', async () => {
    const dir = await freshDir();
    const contents = Array.from({ length: 25 }, (_, w) => raceContent(w, 64 * 1024));
    const outcomes = await Promise.all(
      contents.map((content) => publishFileNoClobber(dir, 'q-answers-007.json', content)),
    );
    const winner = outcomes.indexOf('published');
    assert.equal(outcomes.filter((o) => o === 'published').length, 1);
    assert.equal(outcomes.filter((o) => o === 'exists').length, contents.length - 1);
    assert.equal(await readFile(join(dir, 'q-answers-007.json'), 'utf8'), contents[winner]);
    assert.deepEqual(await readdir(dir), ['q-answers-007.json']);
  });

  it('never replaces a file that is already there', async () => {
    const dir = await freshDir();
    await writeFile(join(dir, 'q-answers-001.json'), '{"from":"tui"}');
    assert.equal(
      await publishFileNoClobber(dir, 'q-answers-001.json', '{"from":"relay"}'),
      'exists',
    );
    assert.equal(await readFile(join(dir, 'q-answers-001.json'), 'utf8'), '{"from":"tui"}');
    assert.deepEqual(await readdir(dir), ['q-answers-001.json']);
  });

  it('publishes the exact content and leaves only the published file', async () => {
    const dir = await freshDir();
    const content = '{"seq":2,"answers":[],"questions":[],"note":"é ✓"}\n';
    assert.equal(await publishFileNoClobber(dir, 'q-answers-002.json', content), 'published');
    assert.equal(await readFile(join(dir, 'q-answers-002.json'), 'utf8'), content);
    assert.deepEqual(await readdir(dir), ['q-answers-002.json']);
  });

  it('names its temp files so the watcher and the o7 TUI ignore them', () => {
    const temp = tempPathBeside(join('/runs/r1/qa', 'q-answers-001.json'));
    const name = temp.slice(temp.lastIndexOf('/') + 1);
    assert.equal(parseQaFileName(name), undefined);
    assert.doesNotMatch(name, /^q-(out|answers)-\d{3,}\.json$/);
    assert.match(name, /^\.q-answers-001\.json\..+\.tmp$/);
  });

  it('throws an error naming the path and what to check when the folder cannot be written', async () => {
    const dir = await freshDir();
    const notAFolder = join(dir, 'a-file');
    await writeFile(notAFolder, 'not a folder');
    const target = join(notAFolder, 'qa', 'q-answers-001.json');
    await assert.rejects(
      publishFileNoClobber(join(notAFolder, 'qa'), 'q-answers-001.json', '{}'),
      (error: unknown) => {
        assert.ok(error instanceof FileWriteError);
        assert.equal(error.code, ErrorCode.FileWriteFailed);
        assert.equal(error.path, target);
        assert.match(error.message, new RegExp(`Publishing ${target} failed: ENOTDIR`));
        assert.match(error.message, /is a file, not a folder/);
        assert.equal((error.cause as NodeJS.ErrnoException).code, 'ENOTDIR');
        return true;
      },
    );
    assert.deepEqual(await readdir(dir), ['a-file']);
  });

  it('refuses a name that points into another folder', async () => {
    const dir = await freshDir();
    await assert.rejects(publishFileNoClobber(dir, '../q-answers-001.json', '{}'), TypeError);
    await assert.rejects(publishFileNoClobber(dir, '', '{}'), TypeError);
    assert.deepEqual(await readdir(dir), []);
  });
});
