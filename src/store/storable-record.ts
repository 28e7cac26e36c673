import { z } from 'zod';
import type { BatchRecord } from '../core/batch/batch-record.js';
import { batchRecordSchema } from './run-file.js';

/**
 * A private copy of `record` exactly as it will read back from storage (JSON round trip), and
 * checked, so a bad record fails its own `put` instead of making stored state unloadable.
 */
export function toStorable(record: BatchRecord): BatchRecord {
  let plain: unknown;
  try {
    plain = JSON.parse(JSON.stringify(record));
  } catch (error) {
    throw new TypeError(
      `batch ${record.key} of ${record.runDir} cannot be saved as JSON: ${String(error)}`,
    );
  }
  const parsed = batchRecordSchema.safeParse(plain);
  if (!parsed.success) {
    throw new TypeError(
      `batch ${record.key} of ${record.runDir} is not a valid batch record:\n${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}
