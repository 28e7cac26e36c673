import type { BatchRecord } from '../../src/core/batch/batch-record.js';

/** When the reminder tests' batch was made. */
export const START = Date.parse('2026-01-05T09:00:00.000Z');

/** The open batch the reminder tests start from: 'k1', batch 1 of /runs/a, made at START. */
export function startRecord(changes: Partial<BatchRecord> = {}): BatchRecord {
  const made = new Date(START).toISOString();
  return {
    key: 'k1',
    runDir: '/runs/a',
    seq: 1,
    fingerprint: 'f'.repeat(64),
    status: 'open',
    drafts: {},
    createdAt: made,
    updatedAt: made,
    ...changes,
  };
}
