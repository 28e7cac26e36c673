import { type Stats, statSync, type watch as watchFolder } from 'node:fs';
import path from 'node:path';
import { watch } from 'chokidar';
import type { Logger } from 'pino';
import { looksLikeQaFileName } from '../core/protocol/questions/look-alike-names.js';
import { QA_DIR } from '../core/protocol/run-folder.js';
import { createRootRelister } from './root-relister.js';
import type { RunFsEvent } from './run-events.js';
import { createRunFolderWatch } from './run-folder-watch.js';
import { watchErrorHint } from './watch-error-hint.js';

// Names reported in qa/ folders (`looksLikeQaFileName`): protocol names, and names that look
// like them (`q-out-0001.json`), which the consumer points out instead of ignoring them.

/** Polling a few files twice a second is cheap and quick enough for a person answering in Slack. */
const POLL_INTERVAL_MS = 500;

/** When a folder chokidar reports as new is told again (see `tellAgainLater`). */
const CHOKIDAR_RELIST_MS = [50, 500] as const;

/** A qa/ folder the relay may not read is tried again after 1 s, doubling up to a minute. */
const DENIED_RETRY_FIRST_MS = 1000;
const DENIED_RETRY_MAX_MS = 60_000;

/** A path chokidar may see: a folder we must descend into, or a protocol file of a run. */
type Place = { kind: 'dir'; runDir?: string } | { kind: 'qa-file'; runDir: string; name: string };

const isInside = (rel: string): boolean =>
  rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);

/** What `p` is for each watch path: its ancestor, a run dir, a `qa/` dir, or a protocol file. */
function placesOf(p: string, roots: readonly string[]): Place[] {
  const places: Place[] = [];
  for (const root of roots) {
    const rel = path.relative(root, p);
    if (rel === '') {
      places.push({ kind: 'dir', runDir: root });
      continue;
    }
    if (!isInside(rel)) {
      if (isInside(path.relative(p, root))) places.push({ kind: 'dir' });
      continue;
    }
    const [a = '', b, c, ...deeper] = rel.split(path.sep);
    if (deeper.length > 0) continue;
    const child = path.join(root, a);
    if (b === undefined) {
      places.push({ kind: 'dir', runDir: child });
      if (a === QA_DIR) places.push({ kind: 'dir', runDir: root });
    } else if (c === undefined) {
      if (b === QA_DIR) places.push({ kind: 'dir', runDir: child });
      if (a === QA_DIR && looksLikeQaFileName(b))
        places.push({ kind: 'qa-file', runDir: root, name: b });
    } else if (b === QA_DIR && looksLikeQaFileName(c)) {
      places.push({ kind: 'qa-file', runDir: child, name: c });
    }
  }
  return places;
}

/** Stats come from lstat while listing a folder, so a symlink may stand for a folder or a file. */
const fits = (place: Place, stats: Stats | undefined): boolean =>
  stats === undefined ||
  (place.kind === 'qa-file' ? !stats.isDirectory() : stats.isDirectory() || stats.isSymbolicLink());

function toEvents(event: string, p: string, roots: readonly string[]): RunFsEvent[] {
  const out = new Map<string, RunFsEvent>();
  for (const place of placesOf(p, roots)) {
    if (place.kind === 'qa-file' && (event === 'add' || event === 'change' || event === 'unlink')) {
      out.set(`f:${place.runDir}/${place.name}`, {
        type: 'qa-file',
        runDir: place.runDir,
        name: place.name,
      });
    } else if (place.kind === 'dir' && place.runDir !== undefined && event === 'unlinkDir') {
      out.set(`g:${place.runDir}`, { type: 'run-gone', runDir: place.runDir });
    } else if (place.kind === 'dir' && place.runDir !== undefined && event === 'addDir') {
      out.set(`s:${place.runDir}`, { type: 'run-seen', runDir: place.runDir });
    }
  }
  return [...out.values()];
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    // missing, unreadable or a symlink loop: keep climbing, chokidar reports what it cannot read
    return false;
  }
}

/** The closest folder above `root` that exists now; watching it lets `root` come and go. */
function existingParent(root: string): string {
  let dir = path.dirname(root);
  while (dir !== path.dirname(dir) && !isDirectory(dir)) {
    dir = path.dirname(dir);
  }
  return dir;
}

/**
 * Watches run folders for protocol files in their `qa/` folder and reports them as hints.
 *
 * A watch path may be a run dir or a runs root, and can turn into either later, so both shapes
 * count at once: `<path>/qa/<name>` belongs to run `<path>` and `<path>/<child>/qa/<name>` to
 * run `<path>/<child>`. Nothing else below a watch path is read or watched. Each path is
 * watched through the closest existing folder above it, so it may be missing at start and
 * deleting it is seen. `watchedRuns` counts the runs whose `qa/` folder is watched.
 */
export function watchRuns(
  paths: string[],
  onEvent: (event: RunFsEvent) => void,
  opts: {
    log: Logger;
    usePolling?: boolean;
    /** Node's `fs.watch` for the folders inside roots, unless a test passes one that loses events. */
    watchFolder?: typeof watchFolder;
    relistQuietMs?: number;
    /** A folder the relay's user may not read (EACCES, EPERM), besides the log line. */
    onUnreadable?: (path: string, code: string) => void;
    /**
     * Whether the files in a run's `qa/` folder when its watch is set up are reported, one
     * event each (the default); false for a consumer that lists a run on `run-seen` (see
     * `createRunFolderWatch`). Polling reports them either way.
     */
    reportExisting?: boolean;
  },
): { ready: Promise<void>; watchedRuns(): number; close(): Promise<void> } {
  const roots = [...new Set(paths.map((p) => path.resolve(p)))];
  if (roots.length === 0) {
    throw new Error('watchRuns: no watch paths given; pass at least one run dir or runs root');
  }
  const parents = roots.map((root) => (root === path.dirname(root) ? root : existingParent(root)));
  for (const [i, root] of roots.entries()) {
    if (!isDirectory(root)) {
      opts.log.info({ path: root, waitingIn: parents[i] }, 'watch path does not exist yet');
    }
    if (path.basename(root) === QA_DIR) {
      opts.log.warn({ path: root }, 'watch path is a qa/ folder; watch its run folder instead');
    }
  }
  // chokidar follows the path from the closest existing folder down to each root, so a root
  // may be missing at start, come later, or be removed and made again. With events it stops
  // there: the runs inside a root are watched by `folders`, where an event about one run costs
  // work for that run only (chokidar reads a whole folder again at each change in it, and
  // stats every entry: with 10,000 runs in a root that was 30 µs per run for every new run).
  // Polling needs chokidar down to each file: runs' qa/ folders are two below the root.
  const polling = opts.usePolling ?? false;
  const relDepth = (root: string, i: number) =>
    path.relative(parents[i] as string, root).split(path.sep).length;
  const depth = Math.max(...roots.map((root, i) => relDepth(root, i) + (polling ? 2 : -1)), 0);
  let closed = false;
  const listings: Promise<void>[] = [];
  let scanned = false;
  // Folders the relay may not read: their watch is tried again, more and more slowly, until
  // permissions allow it, since nothing else would notice the change (the tree watcher has
  // seen the folder already). Only the first failure is reported.
  const denied = new Map<string, { timer: NodeJS.Timeout; waitMs: number }>();
  const retryDenied = (folder: string, retry: () => void) => {
    const waitMs = Math.min(
      (denied.get(folder)?.waitMs ?? DENIED_RETRY_FIRST_MS / 2) * 2,
      DENIED_RETRY_MAX_MS,
    );
    const timer = setTimeout(retry, waitMs);
    timer.unref();
    denied.set(folder, { timer, waitMs });
  };
  /** Logs a watch error; one of permission is told to the consumer and retried by `retry`. */
  const reportError = (err: unknown, where: string | undefined, retry: () => void) => {
    const { code } = err as NodeJS.ErrnoException;
    const hint = watchErrorHint(code);
    if (hint === undefined || closed) return;
    const noAccess = (code === 'EACCES' || code === 'EPERM') && where !== undefined;
    if (!noAccess || !denied.has(where)) {
      opts.log.error({ err, path: where, hint }, 'run watcher error');
      if (noAccess) opts.onUnreadable?.(where, code);
    }
    if (noAccess) retryDenied(where, retry);
  };
  const folders = createRunFolderWatch({
    onEvent: (event) => {
      if (!closed) onEvent(event);
    },
    onError: reportError,
    watchFolder: opts.watchFolder,
    reportExisting: opts.reportExisting,
  });
  const isInsideRoot = (p: string) => roots.some((root) => isInside(path.relative(root, p)));
  const isAboveRoot = (p: string) => roots.some((root) => isInside(path.relative(p, root)));
  const ignored = (p: string, stats?: Stats) => {
    const places = placesOf(p, roots).filter((pl) => fits(pl, stats));
    if (places.length === 0) return true;
    if (polling) return false;
    // with events chokidar stops at the roots; `folders` watches what is inside them
    return isInsideRoot(path.resolve(p)) && !isAboveRoot(path.resolve(p));
  };
  const watcher = watch([...new Set(parents)], {
    ignored,
    depth,
    usePolling: polling,
    interval: POLL_INTERVAL_MS,
    binaryInterval: POLL_INTERVAL_MS,
    awaitWriteFinish: false,
  });
  // A safety net in case a folder's event is lost in a burst; see root-relister.ts.
  const relister = createRootRelister({
    log: opts.log,
    quietMs: opts.relistQuietMs,
    unwatched: (found) =>
      found
        .filter(({ path: folder, name }) => name !== QA_DIR && !folders.isWatched(folder))
        .map(({ path: folder }) => folder),
    watchAgain: (folder) => folders.addMissed(folder),
  });
  const watchRoot = (root: string) => {
    if (polling || closed) return;
    // the root may be a run itself; told before its children, its sync (most often nothing
    // to do) does not wait for a turn behind theirs
    onEvent({ type: 'run-seen', runDir: root });
    relister.watch(root);
    const listing = folders.watchRoot(root);
    if (!scanned) listings.push(listing);
  };
  for (const root of roots) if (isDirectory(root)) watchRoot(root);

  // chokidar lists a new folder before it watches it: a file renamed in between is never
  // reported, so the folder is told again once the watch is surely in place. (`folders`
  // lists a folder after its watch is in place, and needs none of this.)
  const later = new Set<NodeJS.Timeout>();
  const tellAgainLater = (event: RunFsEvent) => {
    for (const ms of CHOKIDAR_RELIST_MS) {
      const timer = setTimeout(() => {
        later.delete(timer);
        if (!closed) onEvent(event);
      }, ms);
      timer.unref();
      later.add(timer);
    }
  };

  // Polling: the runs whose qa/ folder chokidar reported, not gone since.
  const polledRuns = new Set<string>();
  watcher.on('all', (event, p) => {
    if (closed) return;
    const resolved = path.resolve(p);
    if (polling && event === 'addDir' && path.basename(resolved) === QA_DIR) {
      const runDir = path.dirname(resolved);
      if (placesOf(resolved, roots).some((pl) => pl.kind === 'dir' && pl.runDir === runDir)) {
        polledRuns.add(runDir);
      }
    }
    if (event === 'addDir' && roots.includes(resolved)) watchRoot(resolved);
    if (event === 'unlinkDir') {
      relister.unwatch(resolved);
      for (const root of roots) {
        if (root === resolved || isInside(path.relative(resolved, root))) folders.unwatchRoot(root);
      }
    }
    for (const runEvent of toEvents(event, resolved, roots)) {
      if (runEvent.type === 'run-gone') polledRuns.delete(runEvent.runDir);
      onEvent(runEvent);
      // (the first scan lists what is there already; the queue reads all of it at its start)
      if (runEvent.type === 'run-seen' && scanned) tellAgainLater(runEvent);
    }
  });
  watcher.on('error', (err: unknown) => {
    const where = (err as NodeJS.ErrnoException).path;
    reportError(err, where, () => {
      // forget the folder and add it again: chokidar reads it anew, or fails (and says so) again
      if (closed || where === undefined) return;
      watcher.unwatch(where);
      watcher.add(where);
    });
  });
  // close() settles ready too, so nobody waits forever on a watcher that never got going
  let resolveReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    resolveReady = resolve;
  });
  watcher.once('ready', () => {
    // Listings started during the first scan finish before `ready`, like chokidar's own adds.
    scanned = true;
    void Promise.all(listings).then(() => {
      listings.length = 0;
      resolveReady();
    });
  });
  return {
    ready,
    watchedRuns: () => (polling ? polledRuns.size : folders.watchedRuns()),
    close: async () => {
      closed = true;
      resolveReady();
      folders.close();
      for (const timer of later) clearTimeout(timer);
      later.clear();
      for (const retry of denied.values()) clearTimeout(retry.timer);
      denied.clear();
      relister.close();
      polledRuns.clear();
      await watcher.close();
    },
  };
}
