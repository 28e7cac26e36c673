import { readdir, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from 'pino';
import type { BatchRecord } from '../core/batch/batch-record.js';
import { err, ok, type Result } from '../core/result.js';
import { isDurableTempName, removeIfPresent, syncDir } from '../fs/durable-io.js';
import { readGuardedFile } from '../fs/read-protocol-file.js';
import { parseRunFile, runFileName } from './run-file.js';
import { parseRunLog, runLogName } from './run-log.js';
import type { FoundLog } from './run-log-writer.js';

/** The folder of the state folder that holds one file per run. */
export const RUNS_FOLDER = 'runs';
const NEWLINE = 0x0a;
/** Far beyond any run's state (a record is about 1 KiB); a bigger file is not ours. */
const RUN_FILE_MAX_BYTES = 64 * 1024 * 1024;
// Enough parallel reads to hide latency, few enough to stay far from the open-files limit.
const LOAD_CONCURRENCY = 16;

/** What the store that holds the state folder's lock lets loading do, and says through. */
export interface Tidy {
  log: Logger;
  /** Clock for the names of corrupt files moved aside. */
  now: () => Date;
}

/** One run's state as loading found it. */
export interface LoadedRun {
  runDir: string;
  batches: Iterable<BatchRecord>;
  found: FoundLog;
  /** Its log ended in a torn append, which was dropped. */
  tornTail: boolean;
}

/**
 * Every run's state in `runsDir`: logs, and files in the first format where no log replaced
 * them (or where the log beside them cannot be read). With `tidy`, for the store that holds
 * the folder's lock, crash leftovers (temp files, a first-format file its log already
 * replaced) are removed, and a file that cannot be read or parsed is moved aside and logged,
 * never fatal. Without it (`doctor`, beside a running relay) nothing is changed or said.
 */
export async function loadRunStates(runsDir: string, tidy?: Tidy): Promise<LoadedRun[]> {
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
      if (!tidy) return;
      await removeIfPresent(path).catch((error: unknown) =>
        tidy.log.warn({ path, err: error }, 'could not remove a leftover temp file; ignoring it'),
      );
    } else if (name.endsWith('.jsonl')) {
      const run = await loadStateFile(path, tidy, (bytes) => parseLogBytes(bytes, name));
      if (run) loaded.push(run);
      if (run?.tornTail) {
        tidy?.log.warn(
          { path },
          'state log ends in part of a line, from a write a crash cut short (its save was never confirmed); dropped that line, and the run’s next write rewrites the file',
        );
      }
      const legacyName = name.slice(0, -1);
      if (!present.has(legacyName)) return;
      // a crash came between writing the log and removing the file it replaced
      const legacyPath = join(runsDir, legacyName);
      if (!run) await loadLegacy(legacyPath, legacyName);
      else if (tidy) await removeReplaced(legacyPath, tidy.log);
    } else if (name.endsWith('.json') && !present.has(`${name}l`)) {
      await loadLegacy(path, name);
    }
  };
  const loadLegacy = async (path: string, name: string) => {
    const run = await loadStateFile(path, tidy, (bytes) => parseLegacyBytes(bytes, name, path));
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
 * Reads one state file with `parse`; one that cannot be read or parsed gives `undefined` (and
 * is moved aside, with `tidy`), one that is gone is skipped.
 */
async function loadStateFile<T>(
  path: string,
  tidy: Tidy | undefined,
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
  if (tidy) await moveAside(path, problem, tidy);
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
async function moveAside(path: string, problem: string, { log, now }: Tidy) {
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
