import { accessSync, constants, type FSWatcher, lstatSync, statSync, watch } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { looksLikeQaFileName } from '../core/protocol/questions/look-alike-names.js';
import { QA_DIR, qaDirOf } from '../core/protocol/run-folder.js';
import type { RunFsEvent } from './run-events.js';

export interface RunFolderWatchDeps {
  onEvent: (event: RunFsEvent) => void;
  /** A watch could not be set up; `retry` sets it up again (used for permission errors). */
  onError: (err: unknown, where: string, retry: () => void) => void;
  /** Node's `fs.watch`, unless a test passes one that loses events on purpose. */
  watchFolder?: typeof watch;
  /**
   * Whether the files already in a run's `qa/` folder are reported, one event each, once its
   * watch is in place (the default). Without, the run's `run-seen` event is the only hint, told
   * before its watch is set up or, after a watch that failed, once it is: for a consumer that
   * lists a run's `qa/` folder on `run-seen` (the queue), a second listing here is the same
   * work again, for every run at start.
   */
  reportExisting?: boolean;
}

/**
 * One run folder: a watch on its `qa/` folder, or on the folder itself until `qa/` exists (or
 * while it is a link). A run folder that is a link is followed by no watch at all.
 */
interface RunWatch {
  qa?: FSWatcher;
  /** only while `qa/` is missing or a link; a root's own folder is watched as the root */
  folder?: FSWatcher;
  linked?: boolean;
}

const isFolder = (p: string): boolean => {
  try {
    return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false; // unreadable or a symlink loop: not a run folder we can use
  }
};

/** Whether `p` is a symbolic link (to a folder or anything else). */
const isLink = (p: string): boolean => {
  try {
    return lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
  } catch {
    return false;
  }
};

const mayEnter = (p: string): boolean => {
  try {
    accessSync(p, constants.R_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * Watches the runs inside roots with plain folder watches: each root, and per run only its
 * `qa/` folder (its run folder while `qa/` does not exist yet). An event names the one entry
 * it is about, so it costs work for that run only; nothing here lists a root after it was
 * listed once at start (`relist` is for a safety net). A root is itself a run (`<root>/qa`)
 * as well as a folder of runs (`<root>/<run>/qa`). A run folder or `qa/` that is a symbolic
 * link is not followed: the run is told (`run-seen`), so that the consumer, which reads no
 * folder the folder guard refuses, can say why, and only the entry's name is watched.
 */
export function createRunFolderWatch(deps: RunFolderWatchDeps) {
  const { onEvent, onError } = deps;
  const watchFolder = deps.watchFolder ?? watch;
  const reportExisting = deps.reportExisting ?? true;
  const roots = new Map<string, FSWatcher>();
  const runs = new Map<string, RunWatch>();
  let closed = false;

  /** Lists a run's `qa/` files once its watch is in place, so none falls between the two. */
  const listQa = (runDir: string): Promise<void> =>
    readdir(qaDirOf(runDir), { withFileTypes: true }).then(
      (entries) => {
        for (const entry of entries) {
          if (closed || !runs.has(runDir)) return;
          if (!entry.isDirectory() && looksLikeQaFileName(entry.name)) {
            onEvent({ type: 'qa-file', runDir, name: entry.name });
          }
        }
      },
      () => undefined, // gone again: its watch says so
    );

  /** Runs whose `qa/` folder is watched: kept as they change, read at every metrics scrape. */
  let qaWatched = 0;

  const stopQaWatch = (run: RunWatch) => {
    if (!run.qa) return;
    run.qa.close();
    run.qa = undefined;
    qaWatched -= 1;
  };

  const closeRun = (run: RunWatch) => {
    stopQaWatch(run);
    run.folder?.close();
    run.folder = undefined;
  };

  /**
   * Watches `runDir/qa` if it exists, else `runDir` until it does; resolves once listed. The
   * caller has told the consumer of the run already (`run-seen`), or has no need to.
   */
  const watchQa = (runDir: string, isRoot: boolean): Promise<void> =>
    startQaWatch(runDir, isRoot) && reportExisting ? listQa(runDir) : Promise.resolve();

  /** Whether `runDir/qa` is watched now (by this call); else `runDir` is, or an error told. */
  const startQaWatch = (runDir: string, isRoot: boolean): boolean => {
    const run = runs.get(runDir);
    if (closed || !run || run.qa || run.linked) return false;
    const qaPath = qaDirOf(runDir);
    if (isLink(qaPath)) {
      // not followed: the run folder's watch sees the link replaced by a folder
      if (!isRoot && !run.folder) watchRunFolder(runDir, run);
      return false;
    }
    try {
      const qa = watchFolder(qaPath, (_event, name) => {
        if (closed || typeof name !== 'string') return;
        if (name === QA_DIR)
          qaChanged(runDir, isRoot); // the folder itself was removed
        else if (looksLikeQaFileName(name)) onEvent({ type: 'qa-file', runDir, name });
      });
      qa.on('error', () => qaChanged(runDir, isRoot));
      run.folder?.close();
      run.folder = undefined;
      run.qa = qa;
      qaWatched += 1;
      return true;
    } catch (err) {
      const { code } = err as NodeJS.ErrnoException;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        // name the folder that is closed to us: the run's own, or its qa/
        const where = isRoot || mayEnter(runDir) ? qaPath : runDir;
        onError(err, where, () => watchQaAndTell(runDir, isRoot));
      } else if (!isRoot && !run.folder) {
        watchRunFolder(runDir, run);
      }
      return false;
    }
  };

  /**
   * Watches `runDir/qa` where nothing told the consumer of the run just before (a watch tried
   * again, a `qa/` made meanwhile): once it is set up, the consumer is told to list the run.
   */
  const watchQaAndTell = (runDir: string, isRoot: boolean) => {
    if (!startQaWatch(runDir, isRoot)) return;
    if (reportExisting) void listQa(runDir);
    else onEvent({ type: 'run-seen', runDir });
  };

  /** A run folder without `qa/`: waits for `qa/` to appear. */
  const watchRunFolder = (runDir: string, run: RunWatch) => {
    try {
      run.folder = watchFolder(runDir, (_event, name) => {
        if (closed || name !== QA_DIR || run.qa) return;
        if (!isFolder(qaDirOf(runDir))) return;
        onEvent({ type: 'run-seen', runDir });
        void watchQa(runDir, false);
      });
      run.folder.on('error', () => undefined); // the folder went away: its root says so
      // `qa/` made between the first try and this watch
      if (isFolder(qaDirOf(runDir))) watchQaAndTell(runDir, false);
    } catch (err) {
      const { code } = err as NodeJS.ErrnoException;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        onError(err, runDir, () => {
          if (runs.get(runDir) === run && !run.qa && !run.folder) watchRunFolder(runDir, run);
        });
      }
    }
  };

  /** The run's `qa/` folder was removed, or removed and made again. */
  const qaChanged = (runDir: string, isRoot: boolean) => {
    const run = runs.get(runDir);
    if (!run) return;
    stopQaWatch(run);
    if (isFolder(qaDirOf(runDir))) {
      onEvent({ type: 'run-seen', runDir });
    } else {
      onEvent({ type: 'run-gone', runDir });
    }
    void watchQa(runDir, isRoot);
  };

  /**
   * Starts following a run folder; `seen` tells the consumer it appeared. A run folder that is
   * a link is told but not watched, and is followed anew once it is a folder (or link) again.
   */
  const addRun = (runDir: string, isRoot: boolean, seen: boolean): Promise<void> => {
    if (closed) return Promise.resolve();
    const linked = !isRoot && isLink(runDir);
    const known = runs.get(runDir);
    if (known && (known.linked ?? false) === linked) return Promise.resolve();
    if (known) dropRun(runDir);
    runs.set(runDir, linked ? { linked } : {});
    if (seen) onEvent({ type: 'run-seen', runDir });
    return linked ? Promise.resolve() : watchQa(runDir, isRoot);
  };

  const dropRun = (runDir: string) => {
    const run = runs.get(runDir);
    if (!run) return;
    closeRun(run);
    runs.delete(runDir);
    onEvent({ type: 'run-gone', runDir });
  };

  /** Something named `name` changed in `root`: only that entry is looked at. */
  const rootEntryChanged = (root: string, name: string) => {
    if (name === QA_DIR) {
      // the root's own qa/: its removal is told by its own watch
      const run = runs.get(root);
      if (run && !run.qa && isFolder(qaDirOf(root))) {
        onEvent({ type: 'run-seen', runDir: root });
        void watchQa(root, true);
      }
      return;
    }
    const runDir = path.join(root, name);
    if (isFolder(runDir)) void addRun(runDir, false, true);
    else if (runs.has(runDir)) dropRun(runDir);
  };

  return {
    /**
     * Watches an existing root and every run folder in it; resolves once the runs there at
     * this moment are listed (their files reported).
     */
    async watchRoot(root: string): Promise<void> {
      if (closed || roots.has(root)) return;
      try {
        const watcher = watchFolder(root, (_event, name) => {
          if (!closed && typeof name === 'string') rootEntryChanged(root, name);
        });
        watcher.on('error', () => undefined); // the root went away: the caller says so
        roots.set(root, watcher);
      } catch (err) {
        const { code } = err as NodeJS.ErrnoException;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') {
          onError(err, root, () => void this.watchRoot(root));
        }
        return;
      }
      const listed = [addRun(root, true, false)];
      const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (closed) return;
        const runDir = path.join(root, entry.name);
        if (entry.name === QA_DIR) continue; // the root's own qa/, watched as the root's run
        // a link to a folder counts as a run, to be told (and refused) but not followed
        if (entry.isDirectory() || (entry.isSymbolicLink() && isFolder(runDir))) {
          listed.push(addRun(runDir, false, true));
        }
      }
      await Promise.all(listed);
    },

    /** The root was removed: stops watching it and every run in it. */
    unwatchRoot(root: string) {
      roots.get(root)?.close();
      roots.delete(root);
      for (const runDir of [...runs.keys()]) {
        if (runDir === root || path.dirname(runDir) === root) dropRun(runDir);
      }
    },

    /** How many runs have their `qa/` folder watched. */
    watchedRuns: (): number => qaWatched,

    /** Whether the folder is followed as a run (for the safety net's listing of a root). */
    isWatched: (runDir: string): boolean => runs.has(runDir),

    /** Follows a folder found by the safety net's listing. */
    addMissed(runDir: string) {
      const root = path.dirname(runDir);
      if (roots.has(root) && isFolder(runDir)) void addRun(runDir, false, true);
    },

    close() {
      closed = true;
      for (const watcher of roots.values()) watcher.close();
      roots.clear();
      for (const run of runs.values()) closeRun(run);
      runs.clear();
    },
  };
}
