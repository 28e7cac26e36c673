import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BatchRecord } from '../core/batch/batch-record.js';
import { loadRunStates, RUNS_FOLDER } from './load-run-states.js';
import { parseRunLog, runLogName } from './run-log.js';

/**
 * Every batch record in the state folder `dir`, read as a start would read it, but read only:
 * no lock taken, nothing moved or removed, nothing logged (the relay reports its own state
 * files). For `doctor`, beside a running relay.
 */
export async function readStoredRecords(dir: string): Promise<BatchRecord[]> {
  const runs = await loadRunStates(join(resolve(dir), RUNS_FOLDER)).catch(() => []);
  return runs.flatMap((run) => [...run.batches]);
}

/**
 * The record of batch `seq` of one run from its log in the state folder `dir`, read only;
 * undefined when there is none to read (no log yet, a log that does not parse, records kept in
 * Redis). For the MCP tools, which learn from it who answered: reading only that run's log
 * stays quick however many runs the folder holds.
 */
export async function readStoredRecord(
  dir: string,
  runDir: string,
  seq: number,
): Promise<BatchRecord | undefined> {
  const text = await readFile(join(resolve(dir), RUNS_FOLDER, runLogName(runDir)), 'utf8').catch(
    () => undefined,
  );
  const log = text === undefined ? undefined : parseRunLog(text);
  return log?.ok && log.value.runDir === runDir ? log.value.batches.get(seq) : undefined;
}
