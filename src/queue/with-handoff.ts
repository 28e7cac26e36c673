import type { BatchRecord, Handoff } from '../store/batch-record.js';

/**
 * A record with one more hand-off: appended to the chain, its `to` the new assignee, and a
 * claim on the batch moved to `to` too. A blank note is left out.
 */
export function withHandoff(record: BatchRecord, handoff: Handoff): BatchRecord {
  const note = handoff.note?.trim();
  const { note: _, ...rest } = handoff;
  return {
    ...record,
    handoffs: [...(record.handoffs ?? []), note ? { ...rest, note } : rest],
    assignee: handoff.to,
    ...(record.claimedBy ? { claimedBy: handoff.to } : {}),
  };
}
