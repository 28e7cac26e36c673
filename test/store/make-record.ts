import { batchKey } from '../../src/core/queue/batch-key.js';
import type { BatchRecord } from '../../src/store/batch-record.js';

/** A valid open batch record for tests; `changes` override any field. */
export function makeRecord(
  runDir: string,
  seq: number,
  changes: Partial<BatchRecord> = {},
): BatchRecord {
  return {
    key: batchKey(runDir, seq),
    runDir,
    seq,
    fingerprint: `fp-${seq}`,
    status: 'open',
    drafts: {},
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...changes,
  };
}
