import { formatAge } from '../core/slack/text/format-age.js';

/** One node as `nodes` lists it. */
export interface NodeRow {
  node: string;
  /** whether a running relay holds the name now */
  live: boolean;
  /** last heartbeat, ms since the epoch in Redis's time; undefined if none was recorded */
  lastHeartbeat: number | undefined;
  /** batches of its runs still waiting for answers */
  openBatches: number;
}

/**
 * The `nodes` listing: one line per node, sorted by name, this machine's marked. `now` is
 * Redis's time, the clock the heartbeats were taken on.
 */
export function formatNodeTable(rows: NodeRow[], now: number, thisNode: string): string[] {
  if (rows.length === 0) return ['No relay has used this Redis yet.'];
  const lines = [...rows]
    .sort((a, b) => (a.node < b.node ? -1 : a.node > b.node ? 1 : 0))
    .map((row) => [
      row.node === thisNode ? `${row.node} (this machine)` : row.node,
      row.live ? 'live' : 'stopped',
      row.lastHeartbeat === undefined
        ? 'never'
        : `${formatAge(new Date(row.lastHeartbeat), new Date(now))} ago (${new Date(row.lastHeartbeat).toISOString()})`,
      String(row.openBatches),
    ]);
  const header = ['node', 'state', 'last heartbeat', 'open batches'];
  const widths = header.map((title, i) =>
    Math.max(title.length, ...lines.map((cells) => (cells[i] ?? '').length)),
  );
  return [header, ...lines].map((cells) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}
