import { lstat, mkdir, readdir, readFile, rename } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { BatchRecord } from '../core/batch/batch-record.js';
import { isDurableTempName, removeIfPresent, syncDir } from '../fs/durable-io.js';
import { FileWriteError } from '../fs/file-write-error.js';
import { readGuardedFile } from '../fs/read-protocol-file.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import { type CoalescingWriter, createCoalescingWriter } from './coalescing-writer.js';
import { openNoticeBook } from './notice-book.js';
import { parseRunFile, type RunFile, runFileName, serializeRunFile } from './run-file.js';
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
  path: string;
  batches: Map<number, BatchRecord>;
  writer: CoalescingWriter;
}

const RUNS_FOLDER = 'runs';
/** Far beyond any run's state (a record is about 1 KiB); a bigger file is not ours. */
const RUN_FILE_MAX_BYTES = 64 * 1024 * 1024;
// Enough parallel reads to hide latency, few enough to stay far from the open-files limit.
const LOAD_CONCURRENCY = 16;

/**
 * Opens the relay's state in `dir` (created if missing): one JSON file per run under
 * `runs/`, all loaded into memory. Locks the folder against a second relay
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
      const path = join(runsDir, runFileName(runDir));
      const batches = new Map<number, BatchRecord>();
      slot = {
        runDir,
        path,
        batches,
        // the snapshot is taken when the write starts, so it carries every earlier put
        writer: createCoalescingWriter(() =>
          writeFileAtomic(path, serializeRunFile(runDir, batches.values())),
        ),
      };
      slots.set(runDir, slot);
    }
    return slot;
  };

  let notices: Awaited<ReturnType<typeof openNoticeBook>>;
  try {
    notices = await openNoticeBook(root, log, now);
    const loaded = await loadRunFiles(runsDir, log, now);
    for (const file of loaded) {
      const slot = slotFor(file.runDir);
      for (const record of Object.values(file.batches)) {
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

  /** Takes the record into memory at once; resolves when its run file is durable. */
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
    return slot.writer.request();
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
      await removeIfPresent(slot.path);
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

async function loadRunFiles(runsDir: string, log: Logger, now: () => Date): Promise<RunFile[]> {
  let names: string[];
  try {
    names = await readdir(runsDir);
  } catch (error) {
    throw new Error(`could not list the state folder ${runsDir}: ${String(error)}`, {
      cause: error,
    });
  }
  const loaded: RunFile[] = [];
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++] as string;
      const path = join(runsDir, name);
      // only this process writes here (we hold the lock), so a temp file is a crash leftover
      if (isDurableTempName(name)) {
        await removeIfPresent(path).catch((error: unknown) =>
          log.warn({ path, err: error }, 'could not remove a leftover temp file; ignoring it'),
        );
      } else if (name.endsWith('.json')) {
        const file = await loadRunFile(path, name, log, now);
        if (file) loaded.push(file);
      }
    }
  };
  await Promise.all(Array.from({ length: LOAD_CONCURRENCY }, worker));
  return loaded;
}

async function loadRunFile(
  path: string,
  name: string,
  log: Logger,
  now: () => Date,
): Promise<RunFile | undefined> {
  let problem: string;
  try {
    // a FIFO or a symlink to /dev/zero here must not hang the start
    const found = await readGuardedFile(path, { maxBytes: RUN_FILE_MAX_BYTES, oneLinkOnly: false });
    if (found.kind === 'missing') return undefined;
    if (found.kind === 'refused') {
      problem = found.reason;
    } else {
      const parsed = parseRunFile(found.bytes.toString('utf8'));
      if (parsed.ok && runFileName(parsed.value.runDir) === name) return parsed.value;
      problem = parsed.ok
        ? `its name does not match its runDir ${JSON.stringify(parsed.value.runDir)} (expected ${runFileName(parsed.value.runDir)})`
        : parsed.error;
    }
  } catch (error) {
    problem = `unreadable: ${String(error)}`;
  }
  await moveAside(path, problem, log, now);
  return undefined;
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
  const records: BatchRecord[] = [];
  for (const name of names) {
    if (!name.endsWith('.json') || isDurableTempName(name)) continue;
    const path = join(runsDir, name);
    try {
      if (!(await lstat(path)).isFile()) continue; // a FIFO would block the read
      const parsed = parseRunFile(await readFile(path, 'utf8'));
      if (parsed.ok) records.push(...Object.values(parsed.value.batches));
    } catch {
      // gone or unreadable: the relay reports its own state files
    }
  }
  return records;
}
