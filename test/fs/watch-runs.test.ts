import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, watch as watchFolder } from 'node:fs';
import {
  chmod,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  stat,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type TestContext, test } from 'node:test';
import type { RunFsEvent } from '../../src/fs/run-events.js';
import { watchErrorHint } from '../../src/fs/watch-error-hint.js';
import { watchRuns } from '../../src/fs/watch-runs.js';
import { captureLog } from '../support/log-capture.js';
import { NODE_LOADER_ARGS, projectModule } from '../support/project-paths.js';
import { waitFor } from '../support/wait.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An event plus the file's content read when it arrived, as the real consumer would. */
type Seen = RunFsEvent & { content?: string };

const debugLog = () => {
  const { log, records: lines } = captureLog('debug');
  return { log, lines };
};

/** A temp folder plus a way to start watchers; everything is closed and removed after the test. */
async function setup(t: TestContext) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'watch-runs-'));
  const closers: (() => Promise<void>)[] = [];
  t.after(async () => {
    for (const close of closers) await close();
    await rm(dir, { recursive: true, force: true });
  });
  const start = async (
    paths: string[],
    opts: { usePolling?: boolean } & Pick<
      Parameters<typeof watchRuns>[2],
      'watchFolder' | 'relistQuietMs' | 'reportExisting'
    > = {},
  ) => {
    const seen: Seen[] = [];
    const appeared: string[] = [];
    const { log, lines } = debugLog();
    const watcher = watchRuns(
      paths,
      (event) => {
        if (event.type === 'run-seen') return void appeared.push(event.runDir);
        if (event.type !== 'qa-file') return void seen.push(event);
        let content: string | undefined;
        try {
          content = readFileSync(path.join(event.runDir, 'qa', event.name), 'utf8');
        } catch {
          content = undefined; // deleted: the consumer would see it gone
        }
        seen.push({ ...event, content });
      },
      { log, ...opts },
    );
    closers.push(() => watcher.close());
    await watcher.ready;
    const qaFile = (runDir: string, name: string, from = 0) =>
      seen.slice(from).some((e) => e.type === 'qa-file' && e.runDir === runDir && e.name === name);
    const gone = (runDir: string) => seen.some((e) => e.type === 'run-gone' && e.runDir === runDir);
    return {
      seen,
      appeared,
      lines,
      watcher,
      qaFile,
      waitQaFile: (runDir: string, name: string, from = 0) =>
        waitFor(() => qaFile(runDir, name, from), `qa-file ${name} in ${runDir}`),
      waitGone: (runDir: string) => waitFor(() => gone(runDir), `run-gone ${runDir}`),
    };
  };
  return { dir, runs: path.join(dir, 'runs'), start };
}

async function put(file: string, content = '{}') {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

/** Makes run folder `name` under `runs`, holding the question file of batch 1; returns its path. */
async function putRun(runs: string, name: string): Promise<string> {
  const run = path.join(runs, name);
  await put(path.join(run, 'qa', 'q-out-001.json'));
  return run;
}

const onLinux = process.platform === 'linux';
/** A test that counts inotify watches, which only Linux shows (in /proc). */
const watchCountTest = (name: string, fn: (t: TestContext) => Promise<void>) =>
  test(name, { skip: !onLinux && 'reads inotify watches from /proc' }, fn);

/** Inodes this process holds inotify watches on, read from /proc (Linux only). */
async function watchedInodes(): Promise<Set<number>> {
  const inodes = new Set<number>();
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target !== 'anon_inode:inotify') continue;
    const info = await readFile(`/proc/self/fdinfo/${fd}`, 'utf8').catch(() => '');
    for (const m of info.matchAll(/^inotify wd:\S+ ino:([0-9a-f]+)/gm)) {
      inodes.add(Number.parseInt(m[1] as string, 16));
    }
  }
  return inodes;
}

const inode = async (p: string) => (await stat(p)).ino;

/** Lets the watcher notice a new folder before the next step, so steps really happen in order. */
async function untilWatched(dir: string) {
  if (!onLinux) return sleep(500);
  const ino = await inode(dir);
  await waitFor(async () => (await watchedInodes()).has(ino), `a watch on ${dir}`);
}

test('reports protocol files that exist at start before ready, and nothing else', async (t) => {
  const { runs, start } = await setup(t);
  const r1 = await putRun(runs, 'r1');
  await put(path.join(r1, 'qa', 'q-answers-001.json'));
  await put(path.join(r1, 'qa', 'q-out-1000.json'));
  for (const other of [
    '.q-answers-002.json.tmp',
    'q-out-002.json.tmp',
    '.q-out-003.json',
    'x.json',
  ]) {
    await put(path.join(r1, 'qa', other));
  }
  await put(path.join(r1, 'qa', 'q-out-004.json', 'q-out-005.json')); // a folder with the name
  await put(path.join(r1, 'logs', 'qa', 'q-out-001.json')); // too deep for either shape
  await put(path.join(runs, 'q-out-001.json')); // not in a qa/ folder
  await put(path.join(r1, 'q-out-001.json'));

  const w = await start([runs]);

  const names = w.seen.map((e) => (e.type === 'qa-file' ? `${e.runDir}|${e.name}` : e.type));
  assert.deepEqual(names.sort(), [
    `${r1}|q-answers-001.json`,
    `${r1}|q-out-001.json`,
    `${r1}|q-out-1000.json`,
  ]);
});

test('names that only look like protocol files are reported too, at start and later', async (t) => {
  // they used to be dropped here, so nobody learnt why an agent's q-out-0001.json was never
  // shown; the queue now tells them apart (parseQaFileName) and points them out
  const { dir, start } = await setup(t);
  const r1 = path.join(dir, 'r1');
  await put(path.join(r1, 'qa', 'q-out-0001.json'));
  await put(path.join(r1, 'qa', 'q-answers-0002.json'));
  await put(path.join(r1, 'qa', 'q-out-010.json'));
  const w = await start([r1]);
  await put(path.join(r1, 'qa', 'q-out-0003.json'));
  await put(path.join(r1, 'qa', 'q-out-1000.json'));
  await w.waitQaFile(r1, 'q-out-1000.json');
  const names = w.seen.flatMap((e) => (e.type === 'qa-file' ? [e.name] : []));
  assert.deepEqual([...new Set(names)].sort(), [
    'q-answers-0002.json',
    'q-out-0001.json',
    'q-out-0003.json',
    'q-out-010.json',
    'q-out-1000.json',
  ]);
});

watchCountTest(
  'spends one inotify watch per run (its qa/ folder) and reports nothing for other folders',
  async (t) => {
    const { dir, runs, start } = await setup(t);
    const r1 = await putRun(runs, 'r1');
    await put(path.join(r1, 'logs', 'a', 'b', 'c', 'log.txt'));
    await put(path.join(r1, 'logs', 'qa', 'q-out-001.json'));
    await put(path.join(r1, 'artifacts', 'out.bin'));
    await put(path.join(r1, 'notes.txt'));

    const w = await start([runs]);

    const watched = await watchedInodes();
    for (const needed of [dir, runs, path.join(r1, 'qa')]) {
      assert.ok(watched.has(await inode(needed)), `expected a watch on ${needed}`);
    }
    const unwanted = [
      '.',
      'logs',
      'logs/a',
      'logs/a/b',
      'logs/a/b/c',
      'logs/qa',
      'artifacts',
      'notes.txt',
    ];
    for (const rel of unwanted) {
      assert.ok(!watched.has(await inode(path.join(r1, rel))), `unexpected watch on ${rel}`);
    }

    await put(path.join(r1, 'logs', 'a', 'b', 'q-out-002.json'));
    await put(path.join(r1, 'logs', 'qa', 'q-out-003.json'));
    await put(path.join(r1, 'artifacts', 'qa', 'q-out-004.json'));
    await put(path.join(r1, 'qa', 'q-out-009.json')); // a sentinel: events are delivered in order
    await w.waitQaFile(r1, 'q-out-009.json');
    assert.ok(w.seen.every((e) => e.type === 'qa-file' && e.runDir === r1));
    assert.deepEqual([...new Set(w.seen.map((e) => e.type === 'qa-file' && e.name))].sort(), [
      'q-out-001.json',
      'q-out-009.json',
    ]);
  },
);

test('picks up a runs root, run folders and qa/ folders created after start', async (t) => {
  const { dir, start } = await setup(t);
  const runs = path.join(dir, '.7', 'runs'); // neither .7 nor runs exist yet
  const w = await start([runs]);

  await mkdir(path.join(dir, '.7'));
  await untilWatched(path.join(dir, '.7'));
  await mkdir(runs);
  await untilWatched(runs);
  const r1 = path.join(runs, 'r1');
  await mkdir(r1);
  await untilWatched(r1);
  await mkdir(path.join(r1, 'qa'));
  await untilWatched(path.join(r1, 'qa'));
  await put(path.join(r1, 'qa', 'q-out-001.json'));
  await w.waitQaFile(r1, 'q-out-001.json');

  const r2 = path.join(runs, 'r2'); // all at once
  await put(path.join(r2, 'qa', 'q-out-001.json'));
  await w.waitQaFile(r2, 'q-out-001.json');

  await put(path.join(runs, 'qa', 'q-out-001.json')); // the same path read as a run dir
  await w.waitQaFile(runs, 'q-out-001.json');
});

test('a missing watch path does not throw, and a run dir created later works', async (t) => {
  const { dir, start } = await setup(t);
  const run = path.join(dir, 'a', 'b', 'run-1');
  const w = await start([run]);
  assert.equal(
    w.lines.find((l) => l.level === 50),
    undefined,
    'missing is not an error',
  );
  assert.ok(w.lines.some((l) => l.path === run && l.msg === 'watch path does not exist yet'));
  await put(path.join(run, 'qa', 'q-out-001.json'));
  await w.waitQaFile(run, 'q-out-001.json');
  const other = watchRuns(['/nonexistent/o7/runs'], () => {}, debugLog());
  await other.ready;
  await other.close();
});

test('reports a file renamed into place, and one replaced by a rename', async (t) => {
  const { dir, start } = await setup(t);
  const run = path.join(dir, 'run');
  const qa = path.join(run, 'qa');
  await put(path.join(qa, 'q-answers-001.json'), '{"old":true}');
  const w = await start([run]);

  await writeFile(path.join(qa, '.q-out-002.json.tmp'), '{"seq":2}');
  await rename(path.join(qa, '.q-out-002.json.tmp'), path.join(qa, 'q-out-002.json'));
  await waitFor(
    () =>
      w.seen.some(
        (e) => e.type === 'qa-file' && e.name === 'q-out-002.json' && e.content === '{"seq":2}',
      ),
    'the renamed file with its content',
  );

  await writeFile(path.join(qa, '.q-answers-001.json.tmp'), '{"new":true}');
  await rename(path.join(qa, '.q-answers-001.json.tmp'), path.join(qa, 'q-answers-001.json'));
  await waitFor(
    () => w.seen.some((e) => e.type === 'qa-file' && e.content === '{"new":true}'),
    'the replaced file with its new content',
  );
  assert.ok(w.seen.every((e) => e.type === 'qa-file' && !e.name.endsWith('.tmp')));
});

test('a file written slowly in place is reported after its last write', async (t) => {
  const { dir, start } = await setup(t);
  const run = path.join(dir, 'run');
  await mkdir(path.join(run, 'qa'), { recursive: true });
  const w = await start([run]);
  const full = JSON.stringify({ seq: 3, questions: [{ id: 'x'.repeat(2000) }] });

  const file = await open(path.join(run, 'qa', 'q-out-003.json'), 'w');
  try {
    await file.write(full.slice(0, 1000));
    await w.waitQaFile(run, 'q-out-003.json');
    await sleep(300); // a slow writer: the rest comes later
    await file.write(full.slice(1000));
  } finally {
    await file.close();
  }
  await waitFor(
    () => w.seen.some((e) => e.type === 'qa-file' && e.content === full),
    'an event after the last write',
  );
});

test('reports deleted qa files, qa/ folders, run folders and watched run dirs', async (t) => {
  const { dir, runs, start } = await setup(t);
  const single = path.join(dir, 'single-run');
  for (const run of ['r1', 'r2', 'r3']) await putRun(runs, run);
  await put(path.join(single, 'qa', 'q-out-001.json'));
  const w = await start([runs, single]);

  const mark = w.seen.length;
  await unlink(path.join(runs, 'r1', 'qa', 'q-out-001.json'));
  await w.waitQaFile(path.join(runs, 'r1'), 'q-out-001.json', mark);

  await rm(path.join(runs, 'r2', 'qa'), { recursive: true });
  await w.waitGone(path.join(runs, 'r2'));
  await rm(path.join(runs, 'r3'), { recursive: true });
  await w.waitGone(path.join(runs, 'r3'));
  await rm(single, { recursive: true });
  await w.waitGone(single);

  await put(path.join(single, 'qa', 'q-out-002.json')); // the watched run dir comes back
  await w.waitQaFile(single, 'q-out-002.json');
  assert.equal(
    w.lines.find((l) => l.level === 50),
    undefined,
    'deletions are not errors',
  );
});

watchCountTest(
  'a qa/ folder removed and made again is watched again, with one watch per run',
  async (t) => {
    const { runs, start } = await setup(t);
    const run = await putRun(runs, 'r1');
    const w = await start([runs]);
    await rm(path.join(run, 'qa'), { recursive: true });
    await w.waitGone(run);
    await untilWatched(run); // waiting for qa/ to come back
    await put(path.join(run, 'qa', 'q-out-002.json'));
    await w.waitQaFile(run, 'q-out-002.json');
    const watched = await watchedInodes();
    assert.ok(watched.has(await inode(path.join(run, 'qa'))));
    assert.ok(!watched.has(await inode(run)), 'the run folder is no longer watched once qa/ is');
  },
);

test('reports a thousand files in one qa/ folder, at start and added later', async (t) => {
  const { dir, start } = await setup(t);
  const run = path.join(dir, 'runs', 'r1');
  const qa = path.join(run, 'qa');
  await mkdir(qa, { recursive: true });
  const names = (from: number) => Array.from({ length: 1000 }, (_, i) => `q-out-${from + i}.json`);
  const write = async (list: string[]) => {
    for (let i = 0; i < list.length; i += 100) {
      await Promise.all(list.slice(i, i + 100).map((n) => writeFile(path.join(qa, n), '{}')));
    }
  };
  const reported = (w: { seen: Seen[] }) =>
    new Set(w.seen.flatMap((e) => (e.type === 'qa-file' ? [e.name] : [])));

  await write(names(1000));
  const w = await start([path.join(dir, 'runs')]);
  assert.equal(reported(w).size, 1000);

  await write(names(2000));
  await waitFor(() => reported(w).size === 2000, '2000 files');
  assert.ok(w.seen.every((e) => e.type === 'qa-file' && e.runDir === run));
});

test('without reportExisting, each run at start is told once for the consumer to list, and counted', async (t) => {
  const { dir, start } = await setup(t);
  const runs = path.join(dir, 'runs');
  const [r1, r2, bare] = ['r1', 'r2', 'bare'].map((name) => path.join(runs, name)) as [
    string,
    string,
    string,
  ];
  await put(path.join(r1, 'qa', 'q-out-001.json'));
  await put(path.join(r1, 'qa', 'q-answers-001.json'));
  await put(path.join(r2, 'qa', 'q-out-001.json'));
  await mkdir(bare); // a folder without qa/: seen, not counted
  const w = await start([runs], { reportExisting: false });

  assert.deepEqual(w.seen, [], 'the files already there are left to the consumer');
  // (the root is told as a possible run too, by chokidar as well)
  const told = w.appeared.filter((runDir) => runDir !== runs);
  assert.deepEqual(told.sort(), [bare, r1, r2], 'each run told once');
  assert.equal(w.watcher.watchedRuns(), 2);

  // what comes later is reported as usual, a new run's files included
  await put(path.join(r1, 'qa', 'q-out-002.json'));
  await w.waitQaFile(r1, 'q-out-002.json');
  const r3 = path.join(runs, 'r3');
  await put(path.join(r3, 'qa', 'q-out-001.json'));
  await waitFor(() => w.appeared.includes(r3), 'the new run told');
  await waitFor(() => w.watcher.watchedRuns() === 3, 'the new run counted');
  await rm(r2, { recursive: true });
  await w.waitGone(r2);
  assert.equal(w.watcher.watchedRuns(), 2);
});

test('watches a run dir and a runs root at once, reporting normalized absolute run dirs', async (t) => {
  const { dir, start } = await setup(t);
  const single = path.join(dir, 'one-run');
  const runs = path.join(dir, 'runs');
  await mkdir(single);
  await mkdir(runs);
  const relativeSingle = `${path.relative(process.cwd(), path.join(dir, 'x', '..', 'one-run'))}/`;
  const w = await start([relativeSingle, runs]);

  await put(path.join(single, 'qa', 'q-out-001.json'));
  await put(path.join(runs, 'r7', 'qa', 'q-answers-001.json'));
  await w.waitQaFile(single, 'q-out-001.json');
  await w.waitQaFile(path.join(runs, 'r7'), 'q-answers-001.json');
});

test('keeps a symlinked watch path as given, and follows no link below it', async (t) => {
  const { dir, start } = await setup(t);
  await mkdir(path.join(dir, 'real', 'runs'), { recursive: true });
  await mkdir(path.join(dir, 'elsewhere', 'r9', 'qa'), { recursive: true });
  await mkdir(path.join(dir, 'elsewhere', 'qa'), { recursive: true });
  await symlink(path.join(dir, 'real'), path.join(dir, 'link'));
  const runs = path.join(dir, 'link', 'runs');
  // a run folder that is a link, and a real run folder whose qa/ is one
  await symlink(path.join(dir, 'elsewhere', 'r9'), path.join(runs, 'r9'));
  await mkdir(path.join(runs, 'r8'));
  await symlink(path.join(dir, 'elsewhere', 'qa'), path.join(runs, 'r8', 'qa'));
  const w = await start([runs]);
  // told, so the queue can say why it reads neither
  for (const run of ['r8', 'r9']) assert.ok(w.appeared.includes(path.join(runs, run)), run);
  if (onLinux) {
    const watched = await watchedInodes();
    for (const outside of ['elsewhere/r9', 'elsewhere/r9/qa', 'elsewhere/qa']) {
      assert.ok(!watched.has(await inode(path.join(dir, outside))), `no watch on ${outside}`);
    }
  }

  await put(path.join(dir, 'elsewhere', 'r9', 'qa', 'q-out-001.json'));
  await put(path.join(dir, 'elsewhere', 'qa', 'q-out-001.json'));
  await put(path.join(runs, 'r1', 'qa', 'q-out-001.json'));
  await w.waitQaFile(path.join(runs, 'r1'), 'q-out-001.json');
  assert.deepEqual(
    w.seen.filter((e) => e.type === 'qa-file' && e.runDir !== path.join(runs, 'r1')),
    [],
    'nothing reported from behind the links',
  );

  // the link replaced by a real folder: followed from then on
  const before = w.appeared.length;
  await rm(path.join(runs, 'r8', 'qa'));
  await put(path.join(runs, 'r8', 'qa', 'q-out-001.json'));
  await waitFor(() => w.appeared.slice(before).includes(path.join(runs, 'r8')), 'r8 seen again');
  await put(path.join(runs, 'r8', 'qa', 'q-out-002.json'));
  await w.waitQaFile(path.join(runs, 'r8'), 'q-out-002.json');
});

test('polling mode reports existing and new files', async (t) => {
  const { dir, start } = await setup(t);
  const run = await putRun(path.join(dir, 'runs'), 'r1');
  const w = await start([path.join(dir, 'runs')], { usePolling: true });
  assert.ok(w.qaFile(run, 'q-out-001.json'));
  assert.equal(w.watcher.watchedRuns(), 1);
  if (onLinux) assert.ok(!(await watchedInodes()).has(await inode(run)), 'polls, no inotify');

  await put(path.join(run, 'qa', 'q-out-002.json'));
  await w.waitQaFile(run, 'q-out-002.json');
  const mark = w.seen.length;
  await writeFile(path.join(run, 'qa', 'q-out-002.json'), '{"seq":2}');
  await w.waitQaFile(run, 'q-out-002.json', mark);
});

test('reports a run folder and its qa/ folder appearing, so they can be listed again', async (t) => {
  const { runs, start } = await setup(t);
  await mkdir(runs);
  const w = await start([runs]);
  const run = path.join(runs, 'late');
  await mkdir(run);
  await waitFor(() => w.appeared.includes(run), 'run folder seen');
  const before = w.appeared.length;
  await mkdir(path.join(run, 'qa'));
  await waitFor(() => w.appeared.length > before, 'qa folder seen');
  assert.ok(w.appeared.slice(before).every((r) => r === run));
});

test('a run folder whose event was lost is found by listing the root once changes pause', async (t) => {
  const { runs, start } = await setup(t);
  await mkdir(runs);
  const lost = path.join(runs, 'lost');
  // A folder watch that loses the root's events about one folder, as an overflowing inotify
  // queue would: only the listing of the root can find it.
  let skipped = false;
  const forgetful = ((folder: string, listener: (event: string, name: string | null) => void) =>
    watchFolder(folder, (event, name) => {
      if (folder === runs && name === 'lost') {
        skipped = true;
        return;
      }
      listener(event, name);
    })) as typeof watchFolder;
  const w = await start([runs], { watchFolder: forgetful, relistQuietMs: 2000 });
  await put(path.join(lost, 'qa', 'q-out-001.json'), '{"seq":1}');
  await waitFor(() => skipped, 'the event to be lost');
  await w.waitQaFile(lost, 'q-out-001.json');
  assert.ok(w.appeared.includes(lost));
  // and the run is watched from then on
  await put(path.join(lost, 'qa', 'q-out-002.json'), '{"seq":2}');
  await w.waitQaFile(lost, 'q-out-002.json');
});

test('delivers no events once close() has resolved', async (t) => {
  const { dir, start } = await setup(t);
  const run = path.join(dir, 'run');
  await mkdir(path.join(run, 'qa'), { recursive: true });
  const w = await start([run]);
  await w.watcher.close();
  await put(path.join(run, 'qa', 'q-out-001.json'));
  await rm(run, { recursive: true });
  await sleep(500); // nothing to wait for: absence of events is the point
  assert.deepEqual(w.seen, []);
});

test('close() before the first scan finishes settles ready', async (t) => {
  const { dir } = await setup(t);
  const { log } = debugLog();
  const watcher = watchRuns([path.join(dir, 'runs')], () => {}, { log });
  await watcher.close();
  await watcher.ready;
});

test('watch error hints: ENOSPC names the sysctl and RELAY_POLL, races are not errors', () => {
  assert.match(watchErrorHint('ENOSPC') ?? '', /fs\.inotify\.max_user_watches.*RELAY_POLL=1/);
  assert.match(watchErrorHint('EACCES') ?? '', /permission/);
  assert.match(watchErrorHint('EWHATEVER') ?? '', /readable/);
  assert.match(watchErrorHint(undefined) ?? '', /readable/);
  assert.equal(watchErrorHint('ENOENT'), undefined);
  assert.equal(watchErrorHint('ENOTDIR'), undefined);
});

const CHILD = `
const { default: pino } = await import('pino');
const { watchRuns } = await import(process.env.WATCH_RUNS_MODULE);
const watcher = watchRuns([process.env.WATCH_PATH], () => {}, { log: pino() });
await watcher.ready;
await watcher.close();
`;

test('an unreadable run folder is logged as an error with its path and a hint', async (t) => {
  const { dir } = await setup(t);
  const runs = path.join(dir, 'runs');
  const locked = path.join(runs, 'locked');
  await mkdir(locked, { recursive: true });
  await chmod(dir, 0o755);
  await chmod(locked, 0o000);
  // root reads anything, so the watcher runs in a child process as nobody when we are root
  const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  const child = spawn(process.execPath, [...NODE_LOADER_ARGS, '--input-type=module', '-e', CHILD], {
    ...asNobody,
    env: {
      ...process.env,
      WATCH_PATH: runs,
      WATCH_RUNS_MODULE: projectModule('src/fs/watch-runs'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, 0);
  const errors = out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((l) => l.level === 50);
  assert.equal(errors.length, 1, out);
  assert.equal(errors[0].path, locked);
  assert.match(errors[0].hint, /permission/);
  assert.equal(errors[0].err.code, 'EACCES');
});
