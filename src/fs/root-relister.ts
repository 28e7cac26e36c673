import { type Dirent, type FSWatcher, watch as watchFolder } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';

/** A root is listed again once changes in it pause this long… */
const QUIET_MS = 1000;
/** …or this long after the first change, if they never pause. */
const AT_MOST_MS = 5000;

export interface RootRelisterDeps {
  /** Of these folders found directly in a root, the ones the tree watcher is not watching. */
  unwatched(folders: { path: string; name: string }[]): string[];
  /** Hands a folder the tree watcher missed back to it. */
  watchAgain(folder: string): void;
  log: Logger;
  quietMs?: number;
}

/**
 * A safety net for a tree watcher that can lose new folders. chokidar reads a changed folder
 * at most once a second, and when the read itself takes longer than that (thousands of run
 * folders on a busy machine), changes made during it are dropped: the last runs of a burst
 * were never seen. This keeps one plain watch per root; once changes in a root pause, it lists
 * the root and hands every folder the tree watcher is not watching back to it.
 */
export function createRootRelister(deps: RootRelisterDeps) {
  const quietMs = deps.quietMs ?? QUIET_MS;
  const watchers = new Map<string, FSWatcher>();
  const due = new Map<string, { timer: NodeJS.Timeout; since: number }>();
  let closed = false;

  const relistSoon = (root: string) => {
    const pending = due.get(root);
    const at = Date.now();
    if (pending && at - pending.since >= AT_MOST_MS) return; // the timer set fires soon
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      due.delete(root);
      void relist(root);
    }, quietMs);
    timer.unref();
    due.set(root, { timer, since: pending?.since ?? at });
  };

  const relist = async (root: string) => {
    let entries: Dirent[];
    try {
      entries = await readdir(root, { withFileTypes: true });
    } catch {
      return; // gone again: the tree watcher reports that
    }
    if (closed) return;
    const folders = entries
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => ({ path: path.join(root, entry.name), name: entry.name }));
    const missed = deps.unwatched(folders);
    for (const folder of missed) deps.watchAgain(folder);
    if (missed.length > 0) {
      deps.log.info(
        { root, missed: missed.length, first: missed[0] },
        'folders the watcher missed in a burst of changes; watching them now',
      );
    }
  };

  const unwatch = (gone: string) => {
    for (const [root, watcher] of watchers) {
      if (root === gone || root.startsWith(`${gone}${path.sep}`)) {
        watcher.close();
        watchers.delete(root);
      }
    }
  };

  return {
    /** Starts watching `root` (an existing folder); does nothing if it already is. */
    watch(root: string) {
      if (closed || watchers.has(root)) return;
      try {
        const watcher = watchFolder(root, () => relistSoon(root));
        watcher.on('error', () => unwatch(root));
        watchers.set(root, watcher);
      } catch {
        // missing or unreadable: the tree watcher reports it, and says when it appears
      }
    },
    /** `gone` was removed: stops watching it and any root below it. */
    unwatch,
    close() {
      closed = true;
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
      for (const { timer } of due.values()) clearTimeout(timer);
      due.clear();
    },
  };
}
