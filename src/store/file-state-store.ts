import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { BatchRecord } from '../core/batch/batch-record.js';
import { removeIfPresent, syncDir } from '../fs/durable-io.js';
import { FileWriteError } from '../fs/file-write-error.js';
import { loadRunStates, RUNS_FOLDER } from './load-run-states.js';
import { type NoticeBook, openNoticeBook } from './notice-book.js';
import { runFileName } from './run-file.js';
import { runLogName } from './run-log.js';
import { RunLogWriter } from './run-log-writer.js';
import { acquireStateDirLock } from './state-dir-lock.js';
import type { StateStore } from './state-store.js';
import { assertSameBatch } from './state-store.js';
import { toStorable } from './storable-record.js';

export { StateDirLockedError } from './state-dir-lock.js';

/** What `openFileStateStore` needs besides the folder. */
export interface FileStateStoreOptions {
  log: Logger;
  /** Clock for the names of corrupt files moved aside. */
  now?: () => Date;
}

interface RunSlot {
  batches: Map<number, BatchRecord>;
  writer: RunLogWriter;
}

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

  /**
   * Runs whose files a `forget` is removing, until it is done: a run saved again meanwhile (its
   * folder came back) writes its new log only then, or the removal would take the log with it.
   */
  const forgetting = new Map<string, Promise<void>>();

  const slotFor = (runDir: string): RunSlot => {
    let slot = slots.get(runDir);
    if (!slot) {
      const batches = new Map<number, BatchRecord>();
      const path = join(runsDir, runLogName(runDir));
      const writer = new RunLogWriter(path, runDir, batches, log, forgetting.get(runDir));
      slot = { batches, writer };
      slots.set(runDir, slot);
    }
    return slot;
  };

  let notices: NoticeBook;
  try {
    notices = await openNoticeBook(root, log, now);
    const loaded = await loadRunStates(runsDir, { log, now });
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

    forget(runDir) {
      const slot = slots.get(runDir);
      if (!slot) return Promise.resolve();
      slots.delete(runDir);
      for (const record of slot.batches.values()) byKey.delete(record.key);
      const removal = (async () => {
        // A write under way would bring the file back; let it land, then remove it for good.
        await slot.writer.idle();
        await removeIfPresent(slot.writer.path);
        await removeIfPresent(join(runsDir, runFileName(runDir)));
        await syncDir(runsDir);
      })();
      const settled = removal.catch(() => undefined);
      forgetting.set(runDir, settled);
      void settled.then(() => {
        if (forgetting.get(runDir) === settled) forgetting.delete(runDir);
      });
      return removal;
    },

    close() {
      closing ??= (async () => {
        await Promise.all([...slots.values()].map((slot) => slot.writer.idle()));
        await Promise.all(forgetting.values());
        await notices.idle();
        await lock.release();
      })();
      return closing;
    },
  };
}
