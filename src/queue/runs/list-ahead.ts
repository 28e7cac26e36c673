/** How many folders are being listed at once. */
const WIDTH = 32;
/** How many listings may wait for their run's sync; past that, listing pauses. */
const MOST_WAITING = 256;

/** Listings of runs' `qa/` folders, made ahead of the runs' syncs. */
export interface ListAhead {
  /** Starts listing these runs, in the order given. */
  start(runDirs: Iterable<string>): void;
  /**
   * The listing made ahead for the run, if any, handed over once; a run not listed yet is
   * left to its sync.
   */
  take(runDir: string): Promise<string[]> | undefined;
  /** Something changed in the run's folder: a listing started before may miss it. */
  forget(runDir: string): void;
  /** Drops every listing and stops listing. */
  close(): void;
}

export interface ListAheadDeps {
  /** Lists one run's `qa/` folder. */
  list: (runDir: string) => Promise<string[]>;
  width?: number;
  mostWaiting?: number;
}

/**
 * Lists runs' `qa/` folders ahead of their syncs, many at once. At start every run on disk is
 * synced, a few at a time, and a sync that lists its own folder waits for a trip through
 * libuv's thread pool and back: one after another, on a busy machine those waits were most
 * of the start with thousands of runs. A listing made here stands for the run's folder from
 * the moment it was started: a hint about the run after that (`forget`) throws it away, and
 * the run's sync lists the folder itself.
 */
export function createListAhead(deps: ListAheadDeps): ListAhead {
  const width = deps.width ?? WIDTH;
  const mostWaiting = deps.mostWaiting ?? MOST_WAITING;
  /** Runs to list, in the order their syncs are due. */
  const due = new Set<string>();
  /** Listings started, until their run's sync takes them. */
  const made = new Map<string, Promise<string[]>>();
  let listing = 0;

  function listMore() {
    for (const runDir of due) {
      if (listing >= width || made.size >= mostWaiting) return;
      due.delete(runDir);
      const names = deps.list(runDir);
      made.set(runDir, names);
      listing += 1;
      const done = () => {
        listing -= 1;
        listMore();
      };
      // a failed listing is the sync's to handle, when it takes it (or to drop, if never)
      names.then(done, done);
    }
  }

  return {
    start(runDirs) {
      for (const runDir of runDirs) due.add(runDir);
      listMore();
    },

    take(runDir) {
      due.delete(runDir);
      const names = made.get(runDir);
      made.delete(runDir);
      listMore();
      return names;
    },

    forget(runDir) {
      if (made.delete(runDir)) listMore();
    },

    close() {
      due.clear();
      made.clear();
    },
  };
}
