import { join, resolve } from 'node:path';
import type { BatchRecord } from '../core/batch/batch-record.js';
import { loadRunStates, RUNS_FOLDER } from './load-run-states.js';

/**
 * Every batch record in the state folder `dir`, read as a start would read it, but read only:
 * no lock taken, nothing moved or removed, nothing logged (the relay reports its own state
 * files). For `doctor`, beside a running relay.
 */
export async function readStoredRecords(dir: string): Promise<BatchRecord[]> {
  const runs = await loadRunStates(join(resolve(dir), RUNS_FOLDER)).catch(() => []);
  return runs.flatMap((run) => [...run.batches]);
}
