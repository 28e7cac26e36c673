import type { BatchRecord, HandOff } from './batch-record.js';

/** Who escalations are recorded as coming from in the hand-off chain. */
export const ESCALATION_FROM = 'the relay';

/**
 * A record whose last hand-off to `to` could not reach them (`reason`: what Slack said): that
 * hand-off is marked so, and `to` is no longer the assignee nor on it. The batch stays open
 * where it was, for anyone to answer.
 */
export function withUndeliveredHandOff(
  record: BatchRecord,
  to: string,
  reason: string,
): BatchRecord {
  const handoffs = [...(record.handoffs ?? [])];
  const last = handoffs.map((h) => h.to).lastIndexOf(to);
  const handOff = handoffs[last];
  if (!handOff) return record;
  handoffs[last] = { ...handOff, undelivered: reason };
  const { assignee, claimedBy, ...rest } = record;
  return {
    ...rest,
    handoffs,
    ...(assignee && assignee !== to ? { assignee } : {}),
    ...(claimedBy && claimedBy !== to ? { claimedBy } : {}),
  };
}

/**
 * A record with one more hand-off: appended to the chain, its `to` the new assignee, and a
 * claim on the batch moved to `to` too. A blank note is left out.
 */
export function withHandOff(record: BatchRecord, handOff: HandOff): BatchRecord {
  const note = handOff.note?.trim();
  const { note: _, ...rest } = handOff;
  return {
    ...record,
    handoffs: [...(record.handoffs ?? []), note ? { ...rest, note } : rest],
    assignee: handOff.to,
    ...(record.claimedBy ? { claimedBy: handOff.to } : {}),
  };
}
