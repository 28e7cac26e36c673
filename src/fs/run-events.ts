/**
 * What the run watcher reports. Events are hints: the consumer re-reads the file or folder
 * to learn what is there now, so a missed or doubled event cannot corrupt state.
 */
export type RunFsEvent =
  /** a file in `<runDir>/qa/` was added, changed or removed (`name` is its base name) */
  | { type: 'qa-file'; runDir: string; name: string }
  /**
   * a run folder or its `qa/` folder appeared: the consumer lists it (where the watcher
   * could miss a file renamed in while it was setting up, it tells this again shortly)
   */
  | { type: 'run-seen'; runDir: string }
  /** the run folder, or its `qa/` folder, is gone */
  | { type: 'run-gone'; runDir: string };
