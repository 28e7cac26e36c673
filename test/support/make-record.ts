import { batchKey } from '../../src/core/batch/batch-key.js';
import type { BatchRecord } from '../../src/core/batch/batch-record.js';
import { idRecord } from '../../src/core/protocol/questions/id-record.js';

/**
 * A valid open batch record for tests; `changes` override any field. Records keyed by question
 * id are without a prototype, as the store keeps them.
 */
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
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...changes,
    drafts: idRecord(Object.entries(changes.drafts ?? {})),
    ...(changes.followUps ? { followUps: idRecord(Object.entries(changes.followUps)) } : {}),
  };
}
