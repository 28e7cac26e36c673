import type { Logger } from 'pino';
import { ended } from '../../core/batch/batch-changes.js';
import { listQaFiles } from '../../core/protocol/qa-listing.js';
import { qaDirOf } from '../../core/protocol/run-folder.js';
import { errnoCode } from '../../fs/errno.js';
import type { FolderGuard } from '../../fs/folder-guard.js';
import type { StateStore } from '../../store/state-store.js';
import type { ElsewhereAnswers } from '../elsewhere-answers.js';
import { type AdvanceRunDeps, activeRecord, advanceRun } from './advance-run.js';
import { removeCrashLeftovers } from './crash-leftovers.js';
import type { ListAhead } from './list-ahead.js';
import type { QuestionReader } from './question-reader.js';
import type { RunDisplay } from './run-display.js';
import type { RunNotices } from './run-notices.js';
import type { RunScheduler } from './run-scheduler.js';

/** Brings one run in line with its folder: what the run scheduler calls for each run. */
export interface RunSync {
  /**
   * Brings one run's records and messages in line with its `qa/` folder. A run folder or `qa/`
   * the folder guard refuses is not read: people are told, and its records stay as they are
   * (an answer given meanwhile is kept, its write refused) until the folder is fixed.
   */
  sync(runDir: string): Promise<void>;
}

/** What {@link createRunSync} needs, besides what it hands on to `advanceRun`. */
export interface RunSyncDeps extends AdvanceRunDeps {
  store: StateStore;
  questions: Pick<QuestionReader, 'read' | 'forget'>;
  folders: Pick<FolderGuard, 'refusal'>;
  notices: RunNotices;
  scheduler: Pick<RunScheduler, 'later' | 'backOff'>;
  /** Listings of `qa/` folders made ahead of their syncs (at start). */
  listAhead: Pick<ListAhead, 'take'>;
  /** Lists a `qa/` folder. */
  listQa: (qaDir: string) => Promise<string[]>;
  elsewhere: Pick<ElsewhereAnswers, 'settle' | 'forget'>;
  display: Pick<RunDisplay, 'show' | 'allShown'>;
  log: Logger;
}

/** Syncs runs; remembers which runs' `qa/` folders were cleared of crash leftovers. */
export function createRunSync(deps: RunSyncDeps): RunSync {
  const { store, questions, notices, scheduler, display, elsewhere, log } = deps;
  /** Runs whose `qa/` folder was cleared of our crash leftovers since the relay started. */
  const cleaned = new Set<string>();

  /**
   * The run's folder is gone: its open batch is closed, and once people have seen that, the
   * run is forgotten; its state file would otherwise be kept and loaded at every start.
   */
  async function closeGoneRun(runDir: string): Promise<void> {
    const active = activeRecord(store, runDir);
    if (active) {
      log.info({ runDir, seq: active.seq }, 'run folder removed; closing its open batch');
      await deps.change(active.key, (r) => ended(r, 'run-removed'));
    }
    questions.forget(runDir);
    cleaned.delete(runDir);
    elsewhere.forget(runDir);
    await notices.forgetRun(runDir);
    await display.show(runDir);
    const records = store.forRun(runDir);
    if (records.length === 0) return;
    if (!display.allShown(runDir)) return;
    await store.forget(runDir);
    log.info({ runDir, batches: records.length }, 'run folder gone; forgot its batches');
  }

  /** Whether the run's folders may not be used now; if so, people are told and it is looked at later. */
  async function refusedNow(runDir: string): Promise<boolean> {
    const refused = await deps.folders.refusal(qaDirOf(runDir));
    if (!refused) return false;
    const told = await notices.refusedFolder(refused);
    log.debug({ runDir, folder: refused.folder, told }, 'not reading a refused run folder');
    if (!told) scheduler.later(scheduler.backOff(runDir), runDir);
    return true;
  }

  return {
    async sync(runDir) {
      if (await refusedNow(runDir)) return;
      await notices.usable(runDir);
      let names: string[] | undefined;
      try {
        names = await (deps.listAhead.take(runDir) ?? deps.listQa(qaDirOf(runDir)));
      } catch (err) {
        const code = errnoCode(err);
        if (code === 'EACCES' || code === 'EPERM') {
          // people are told once; the folder is listed again, slower and slower, until it opens
          const told = await notices.unreadable(qaDirOf(runDir), code);
          log.debug({ runDir, code, told }, 'cannot list the qa/ folder; will look again');
          scheduler.later(scheduler.backOff(runDir), runDir);
          return;
        }
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err; // no qa/ folder: the run is gone
      }
      if (names === undefined) {
        await closeGoneRun(runDir);
        return;
      }
      // looked at again: a qa/ missing at the first look may have come as a link since, and
      // the listing went through it; nothing listed there is read
      if (await refusedNow(runDir)) return;
      await notices.readable(qaDirOf(runDir));
      // protocol names, then the others: only they can be leftovers or look-alikes
      const listing = listQaFiles(names);
      if (!cleaned.has(runDir)) {
        // before anything is read: a leftover hard-linked to an answer file gives it two names
        cleaned.add(runDir);
        await removeCrashLeftovers(runDir, listing.others, log);
      }
      await advanceRun(runDir, listing, deps);
      await elsewhere.settle(runDir);
      await display.show(runDir);
      const again = await notices.lookAlikes(runDir, listing.others);
      if (again === 'back-off') scheduler.later(scheduler.backOff(runDir), runDir);
      else if (again !== undefined) scheduler.later(again, runDir);
    },
  };
}
