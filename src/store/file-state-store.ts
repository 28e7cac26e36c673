import { lstat, mkdir, readdir, readFile, rename } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { BatchRecord } from '../core/batch/batch-record.js';
import { err, ok, type Result } from '../core/result.js';
import { isDurableTempName, removeIfPresent, syncDir } from '../fs/durable-io.js';
import { FileWriteError } from '../fs/file-write-error.js';
import { readGuardedFile } from '../fs/read-protocol-file.js';
import { openNoticeBook } from './notice-book.js';
import { parseRunFile, runFileName } from './run-file.js';
import { parseRunLog, runLogName } from './run-log.js';
import { type FoundLog, RunLogWriter } from './run-log-writer.js';
import { assertSameBatch } from './same-batch.js';
import { acquireStateDirLock } from './state-dir-lock.js';
import type { StateStore } from './state-store.js';
import { toStorable } from './storable-record.js';

export { StateDirLockedError } from './state-dir-lock.js';

/** What `openFileStateStore` needs besides the folder. */
export interface FileStateStoreOptions {
  log: Logger;
  /** Clock for the names of corrupt files moved aside. */
  now?: () => Date;
}

interface RunSlot {
  runDir: string;
  batches: Map<number, BatchRecord>;
  writer: RunLogWriter;
}

/** One run's state as loading found it. */
interface LoadedRun {
  runDir: string;
  batches: Iterable<BatchRecord>;
  found: FoundLog;
  /** Its log ended in a torn append, which was dropped. */
  tornTail: boolean;
}

const RUNS_FOLDER = 'runs';
const NEWLINE = 0x0a;
/** Far beyond any run's state (a record is about 1 KiB); a bigger file is not ours. */
const RUN_FILE_MAX_BYTES = 64 * 1024 * 1024;
// Enough parallel reads to hide latency, few enough to stay far from the open-files limit.
const LOAD_CONCURRENCY = 16;

/**
 * Opens the relay's state in `dir` (created if missing): one log file per run under `runs/`
 * (`run-log.ts`; files in the first format, `run-file.ts`, are read and replaced by a log at
 * the run's next write), all loaded into memory. Locks the folder against a second relay
 * (`StateDirLockedError`). Corrupt run files are logged and moved aside, never fatal.
 */
export async function openFileStateStore(
  dir: string,
  opts: FileStateStoreOptions,
): Promise<StateStore> {
  const { log } = opts;
  const now = opts.now ?? (() => new Date());
  const root = resolve(dir);
  const runsDir = join(root, RUNS_FOLDER);
  try {
    await mkdir(runsDir, { recursive: true });
    await syncDir(root);
  } catch (error) {
    throw new FileWriteError('Creating the state folder', runsDir, error);
  }
  const lock = await acquireStateDirLock(root, log);

  const slots = new Map<string, RunSlot>();
  const byKey = new Map<string, BatchRecord>();

  const slotFor = (runDir: string): RunSlot => {
    let slot = slots.get(runDir);
    if (!slot) {
      const batches = new Map<number, BatchRecord>();
      const writer = new RunLogWriter(join(runsDir, runLogName(runDir)), runDir, batches);
      slot = { runDir, batches, writer };
      slots.set(runDir, slot);
    }
    return slot;
  };

  let notices: Awaited<ReturnType<typeof openNoticeBook>>;
  try {
    notices = await openNoticeBook(root, log, now);
    const loaded = await loadRunFiles(runsDir, log, now);
    for (const run of loaded) {
      const slot = slotFor(run.runDir);
      slot.writer.adopt(run.found);
      for (const record of run.batches) {
        slot.batches.set(record.seq, record);
        byKey.set(record.key, record);
      }
    }
    log.info({ dir: root, runs: slots.size, batches: byKey.size }, 'state loaded');
  } catch (error) {
    await lock.release();
    throw error;
  }

  let closing: Promise<void> | undefined;

  /** Takes the record into memory at once; resolves when its run's log holds it durably. */
  const put = async (record: BatchRecord): Promise<void> => {
    if (closing) {
      throw new Error(`state store ${root} is closed; batch ${record.key} was not saved`);
    }
    const stored = toStorable(record);
    const slot = slotFor(stored.runDir);
    const previous = slot.batches.get(stored.seq);
    if (previous && previous.key !== stored.key) byKey.delete(previous.key);
    slot.batches.set(stored.seq, stored);
    byKey.set(stored.key, stored);
    return slot.writer.save(stored.seq);
  };

  return {
    get: (key) => byKey.get(key),

    forRun: (runDir) => {
      const slot = slots.get(runDir);
      return slot ? [...slot.batches.values()].sort((a, b) => a.seq - b.seq) : [];
    },

    all: () => [...slots.values()].flatMap((slot) => [...slot.batches.values()]),

    notices,

    put,

    async update(key, change) {
      // `change` is synchronous and `put` takes the record into memory before it returns, so
      // nothing can come between the read and the write: no lock is needed in one process.
      const current = byKey.get(key);
      if (!current) return undefined;
      const next = change(current);
      if (next === undefined) return current;
      assertSameBatch(current, next);
      const written = put(next);
      const stored = byKey.get(key);
      await written;
      return stored;
    },

    // only this relay writes here: nothing else ever changes a record
    watch: () => () => undefined,

    async forget(runDir) {
      const slot = slots.get(runDir);
      if (!slot) return;
      slots.delete(runDir);
      for (const record of slot.batches.values()) byKey.delete(record.key);
      // A write under way would bring the file back; let it land, then remove it for good.
      await slot.writer.idle();
      await removeIfPresent(slot.writer.path);
      await removeIfPresent(join(runsDir, runFileName(runDir)));
      await syncDir(runsDir);
    },

    close() {
      closing ??= (async () => {
        await Promise.all([...slots.values()].map((slot) => slot.writer.idle()));
        await notices.idle();
        await lock.release();
      })();
      return closing;
    },
  };
}

async function loadRunFiles(runsDir: string, log: Logger, now: () => Date): Promise<LoadedRun[]> {
  let names: string[];
  try {
    names = await readdir(runsDir);
  } catch (error) {
    throw new Error(`could not list the state folder ${runsDir}: ${String(error)}`, {
      cause: error,
    });
  }
  const present = new Set(names);
  const loaded: LoadedRun[] = [];
  const loadOne = async (name: string) => {
    const path = join(runsDir, name);
    // only this process writes here (we hold the lock), so a temp file is a crash leftover
    if (isDurableTempName(name)) {
      await removeIfPresent(path).catch((error: unknown) =>
        log.warn({ path, err: error }, 'could not remove a leftover temp file; ignoring it'),
      );
    } else if (name.endsWith('.jsonl')) {
      const run = await loadStateFile(path, log, now, (bytes) => parseLogBytes(bytes, name));
      if (run) loaded.push(run);
      if (run?.tornTail) {
        log.warn(
          { path },
          'state log ends in part of a line, from a write a crash cut short (its save was never confirmed); dropped that line, and the run’s next write rewrites the file',
        );
      }
      const legacyName = name.slice(0, -1);
      if (!present.has(legacyName)) return;
      // a crash came between writing the log and removing the file it replaced
      const legacyPath = join(runsDir, legacyName);
      if (run) await removeReplaced(legacyPath, log);
      else await loadLegacy(legacyPath, legacyName);
    } else if (name.endsWith('.json') && !present.has(`${name}l`)) {
      await loadLegacy(path, name);
    }
  };
  const loadLegacy = async (path: string, name: string) => {
    const run = await loadStateFile(path, log, now, (bytes) => parseLegacyBytes(bytes, name, path));
    if (run) loaded.push(run);
  };
  let next = 0;
  const worker = async () => {
    while (next < names.length) await loadOne(names[next++] as string);
  };
  await Promise.all(Array.from({ length: LOAD_CONCURRENCY }, worker));
  return loaded;
}

/** A run's log, checked to be the one its name says. */
function parseLogBytes(bytes: Buffer, name: string): Result<LoadedRun, string> {
  const parsed = parseRunLog(bytes.toString('utf8'));
  if (!parsed.ok) return parsed;
  const { runDir, batches, lines, tornTail } = parsed.value;
  const problem = nameProblem(name, runLogName(runDir), runDir);
  if (problem) return err(problem);
  // appending to a file that does not end in a newline would glue two lines together
  const rewriteFirst = bytes[bytes.length - 1] !== NEWLINE;
  return ok({ runDir, batches: batches.values(), found: { lines, rewriteFirst }, tornTail });
}

/** A run's file in the first format, to be replaced by a log at the run's next write. */
function parseLegacyBytes(bytes: Buffer, name: string, path: string): Result<LoadedRun, string> {
  const parsed = parseRunFile(bytes.toString('utf8'));
  if (!parsed.ok) return parsed;
  const { runDir, batches } = parsed.value;
  const problem = nameProblem(name, runFileName(runDir), runDir);
  if (problem) return err(problem);
  const found = { lines: 0, rewriteFirst: true, legacyPath: path };
  return ok({ runDir, batches: Object.values(batches), found, tornTail: false });
}

function nameProblem(name: string, expected: string, runDir: string): string | undefined {
  return name === expected
    ? undefined
    : `its name does not match its runDir ${JSON.stringify(runDir)} (expected ${expected})`;
}

/**
 * Reads one state file with `parse`; one that cannot be read or parsed is moved aside (and
 * `undefined` returned), one that is gone is skipped.
 */
async function loadStateFile<T>(
  path: string,
  log: Logger,
  now: () => Date,
  parse: (bytes: Buffer) => Result<T, string>,
): Promise<T | undefined> {
  let problem: string;
  try {
    // a FIFO or a symlink to /dev/zero here must not hang the start
    const found = await readGuardedFile(path, { maxBytes: RUN_FILE_MAX_BYTES, oneLinkOnly: false });
    if (found.kind === 'missing') return undefined;
    if (found.kind === 'refused') {
      problem = found.reason;
    } else {
      const parsed = parse(found.bytes);
      if (parsed.ok) return parsed.value;
      problem = parsed.error;
    }
  } catch (error) {
    problem = `unreadable: ${String(error)}`;
  }
  await moveAside(path, problem, log, now);
  return undefined;
}

/** Removes a file in the first format whose log was written, when a crash kept it from going. */
async function removeReplaced(path: string, log: Logger): Promise<void> {
  try {
    await removeIfPresent(path);
    await syncDir(dirname(path));
    log.info({ path }, 'removed a state file its run’s log had already replaced');
  } catch (error) {
    log.warn(
      { path, err: error },
      'could not remove a state file its run’s log replaced; its log is used',
    );
  }
}

// Keeps the bytes for a human to inspect while the relay carries on without that run's state.
async function moveAside(path: string, problem: string, log: Logger, now: () => Date) {
  const movedTo = `${path}.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`;
  try {
    await rename(path, movedTo);
    log.warn(
      { path, movedTo, problem },
      'state file is corrupt; moved it aside and continuing without it (that run’s batches may be posted again)',
    );
  } catch (error) {
    log.error(
      { path, problem, err: error },
      'state file is corrupt and could not be moved aside; continuing without it',
    );
  }
}

/**
 * Every batch record in the state folder `dir`, read only: no lock taken, nothing moved or
 * removed, files that are not plain readable run files skipped. For `doctor`, beside a running
 * relay.
 */
export async function readStoredRecords(dir: string): Promise<BatchRecord[]> {
  const runsDir = join(resolve(dir), RUNS_FOLDER);
  let names: string[];
  try {
    names = await readdir(runsDir);
  } catch {
    return [];
  }
  const present = new Set(names);
  const records: BatchRecord[] = [];
  for (const name of names) {
    if (isDurableTempName(name)) continue;
    const isLog = name.endsWith('.jsonl');
    // a first-format file beside its log is one a crash kept from being removed
    if (!isLog && !(name.endsWith('.json') && !present.has(`${name}l`))) continue;
    const text = await readPlainFile(join(runsDir, name));
    if (text === undefined) continue;
    if (isLog) {
      const parsed = parseRunLog(text);
      if (parsed.ok) records.push(...parsed.value.batches.values());
    } else {
      const parsed = parseRunFile(text);
      if (parsed.ok) records.push(...Object.values(parsed.value.batches));
    }
  }
  return records;
}

/** A regular file's text; undefined for anything else, gone or unreadable (the relay reports its own state files). */
async function readPlainFile(path: string): Promise<string | undefined> {
  try {
    if (!(await lstat(path)).isFile()) return undefined; // a FIFO would block the read
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}
