/**
 * How deep a request body may nest. Slack's deepest payloads (a modal's rich text inside a
 * view inside a view_submission) stay well under 30 levels; a body nested thousands deep
 * parses fine but overflows the stack of anything that walks it recursively later
 * (`JSON.stringify`, a logger, a deep copy).
 */
export const MAX_BODY_DEPTH = 64;

/** True when `value` has arrays or objects nested more than `max` levels; walks without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}
