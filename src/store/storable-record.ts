import * as z from 'zod';
import { type BatchRecord, batchRecordSchema } from '../core/batch/batch-record.js';

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
  return keepOwnStrings(parsed.data, record);
}

/**
 * The copy with `original`'s top-level strings where they are equal: the round trip made new
 * ones, and a record is kept for as long as its run is open while its run folder and file
 * fingerprint are held elsewhere too (the watcher, the question cache). Strings cannot change,
 * so sharing them keeps the copy private.
 */
function keepOwnStrings(copy: BatchRecord, original: BatchRecord): BatchRecord {
  const target = copy as unknown as Record<string, unknown>;
  const source = original as unknown as Record<string, unknown>;
  for (const name of Object.keys(target)) {
    const value = source[name];
    if (typeof value === 'string' && target[name] === value) target[name] = value;
  }
  return copy;
}
