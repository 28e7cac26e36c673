import type { BatchRecord } from '../core/batch/batch-record.js';

/**
 * Checks that `next`, from an `update`'s change, is still the batch `current` is: a change may
 * rewrite anything about a batch but which batch it is. Throws a TypeError saying what moved.
 */
export function assertSameBatch(current: BatchRecord, next: BatchRecord): void {
  const moved = (['key', 'node', 'runDir', 'seq'] as const).filter((f) => current[f] !== next[f]);
  if (moved.length > 0) {
    throw new TypeError(
      `an update of batch ${current.key} may not change its ${moved.join(', ')} (from ${moved.map((f) => JSON.stringify(current[f])).join(', ')} to ${moved.map((f) => JSON.stringify(next[f])).join(', ')}); put a new record instead`,
    );
  }
}
