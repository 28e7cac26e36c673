import path from 'node:path';

/** A watched folder (a run folder or a folder of runs) and the channel its batches go to. */
export interface WatchRoot {
  /** absolute path */
  path: string;
  /** Slack channel ID */
  channel: string;
}

/** Whether `inner` is `outer` or lies below it. */
const isWithin = (inner: string, outer: string): boolean => {
  const rel = path.relative(outer, inner);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
};

/**
 * The channel for anything at `place` (a run folder, its `qa/` folder or a file in it): the
 * channel of the deepest watched folder holding it, the first listed on a tie. A folder above
 * watched folders (one found unreadable, say) takes the channel of the first one below it.
 * Anything else goes to `fallback`.
 */
export function channelForPath(
  roots: readonly WatchRoot[],
  fallback: string,
  place: string,
): string {
  let best: WatchRoot | undefined;
  for (const root of roots) {
    if (!isWithin(place, root.path)) continue;
    if (!best || root.path.length > best.path.length) best = root;
  }
  if (best) return best.channel;
  return roots.find((root) => isWithin(root.path, place))?.channel ?? fallback;
}

/** The channels of the watched folders, each once, in the order listed. */
export function channelsOf(roots: readonly WatchRoot[]): string[] {
  return [...new Set(roots.map((root) => root.channel))];
}

/**
 * The channel for a batch the relay wrote on behalf of a project (a Claude Code hook's, whose
 * `cwd` it names): the deepest watched folder holding the project picks it, else `fallback`.
 * Unlike {@link channelForPath}, a project above watched folders does not take their channel:
 * a session started in a home folder has not asked for any one project's channel.
 */
export function channelForProject(
  roots: readonly WatchRoot[],
  fallback: string,
  project: string,
): string {
  // a relative path would be read against the relay's own folder: it names no project here
  if (!path.isAbsolute(project)) return fallback;
  let best: WatchRoot | undefined;
  for (const root of roots) {
    if (isWithin(project, root.path) && (!best || root.path.length > best.path.length)) best = root;
  }
  return best?.channel ?? fallback;
}
