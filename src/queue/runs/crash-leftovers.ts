import path from 'node:path';
import type { Logger } from 'pino';
import { parseQaFileName, qaDirOf } from '../../core/protocol/run-folder.js';
import { parseDurableTempName, removeIfPresent } from '../../fs/durable-io.js';
import { processIsAlive } from '../../store/state-dir-lock.js';

/**
 * Removes the temp answer files a crash left in a run's `qa/` folder: ours only, named by
 * `publishFileNoClobber` (`.q-answers-NNN.json.<pid>.<hex>.tmp`) by a process that is gone,
 * or that had our pid before us (no publish of ours is under way while the run is synced).
 * Agents' and editors' dot files look different and are left alone, as are temp files of a
 * live process (another relay publishing right now). Returns the names removed.
 */
export async function removeCrashLeftovers(
  runDir: string,
  names: readonly string[],
  log: Logger,
): Promise<string[]> {
  const removed: string[] = [];
  for (const name of names) {
    const temp = parseDurableTempName(name);
    if (temp === undefined || parseQaFileName(temp.target)?.kind !== 'answer') continue;
    if (temp.pid !== process.pid && processIsAlive(temp.pid)) continue;
    const file = path.join(qaDirOf(runDir), name);
    try {
      await removeIfPresent(file);
      removed.push(name);
      log.info({ file }, 'removed a temp answer file a crash left behind');
    } catch (err) {
      log.warn({ err, file }, 'could not remove a temp answer file a crash left behind');
    }
  }
  return removed;
}
