import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BatchRecord } from '../core/batch/batch-record.js';
import { isDurableTempName } from '../fs/durable-io.js';
import { RUNS_FOLDER } from './load-run-states.js';
import { parseRunFile } from './run-file.js';
import { parseRunLog } from './run-log.js';

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
