import { revisionOf } from './batch-key.js';
import type { BatchRecord, BatchStatus } from './batch-record.js';

/** Why an action on a batch must change nothing. */
export type Refusal =
  | { kind: 'unknown' }
  | { kind: 'closed'; status: BatchStatus }
  | { kind: 'out-of-date' };

/**
 * The one rule for "may anyone act on this batch now", used by every listener's early check
 * and again by the queue under the run's lock: why an action on `record` (as shown at
 * `revision`; left out: any version, as for reminders) must change nothing, or `undefined`.
 * `also` lets a batch in one more status go ahead: `submitting` (the queue waits for that
 * submission and then reports the real outcome), or `held` (for Undo).
 */
export function refusalFor(
  record: BatchRecord | undefined,
  at: { revision?: string | undefined; also?: BatchStatus | undefined } = {},
): Refusal | undefined {
  if (!record) return { kind: 'unknown' };
  const open = record.status === 'open' || record.status === at.also;
  if (!open) return { kind: 'closed', status: record.status };
  if ('revision' in at && revisionOf(record.fingerprint) !== at.revision) {
    return { kind: 'out-of-date' };
  }
  return undefined;
}
