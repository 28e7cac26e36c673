import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { FINAL_STATUSES } from '../core/batch/batch-record.js';
import type { StateStore } from '../store/state-store.js';

/** How long a finished ask folder is kept: long past the moment `ask` read its outcome. */
const FINISHED_ASK_KEPT_MS = 60 * 60_000;

/**
 * Removes the folders of asks that are over (answered, cancelled, withdrawn) and have not
 * changed for `keptMs`, and forgets their records: each would otherwise cost a folder watch
 * and a state file for ever. Folders the relay has no record of are left alone (an `ask` may
 * be handing one over right now). Returns how many were removed.
 */
export async function pruneFinishedAsks(deps: {
  asksRoot: string;
  store: StateStore;
  log: Logger;
  now: () => Date;
  keptMs?: number;
}): Promise<number> {
  const keptMs = deps.keptMs ?? FINISHED_ASK_KEPT_MS;
  const cutoff = deps.now().getTime() - keptMs;
  let names: string[];
  try {
    names = await readdir(deps.asksRoot);
  } catch {
    return 0; // no asks yet
  }
  let removed = 0;
  for (const name of names) {
    const runDir = path.join(deps.asksRoot, name);
    const records = deps.store.forRun(runDir);
    const over =
      records.length > 0 &&
      records.every((r) => FINAL_STATUSES.includes(r.status) && Date.parse(r.updatedAt) <= cutoff);
    if (!over) continue;
    try {
      await rm(runDir, { recursive: true, force: true });
      await deps.store.forget(runDir);
      removed += 1;
    } catch (err) {
      deps.log.warn({ err, runDir }, 'could not remove a finished ask folder; will try again');
    }
  }
  if (removed > 0) deps.log.info({ removed }, 'removed finished ask folders');
  return removed;
}
