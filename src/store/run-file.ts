import { createHash } from 'node:crypto';
import * as z from 'zod';
import { type BatchRecord, batchRecordSchema } from '../core/batch/batch-record.js';
import { err, ok, type Result } from '../core/result.js';

/**
 * The first on-disk format of one run's state: every batch record of that run, keyed by seq,
 * rewritten whole at each put. Still read at start; the run's next write replaces it with a
 * log (`run-log.ts`).
 */
export interface RunFile {
  version: 1;
  runDir: string;
  batches: Record<string, BatchRecord>;
}

const runFileSchema = z
  .object({
    version: z.literal(1),
    runDir: z.string().min(1),
    batches: z.record(
      z.string().regex(/^[1-9]\d*$/, 'batch keys are seq numbers'),
      batchRecordSchema,
    ),
  })
  .superRefine((file, ctx) => {
    for (const [seq, record] of Object.entries(file.batches)) {
      if (record.runDir !== file.runDir) {
        ctx.addIssue({
          code: 'custom',
          path: ['batches', seq, 'runDir'],
          message: `expected the file's runDir ${JSON.stringify(file.runDir)}`,
        });
      }
      if (String(record.seq) !== seq) {
        ctx.addIssue({
          code: 'custom',
          path: ['batches', seq, 'seq'],
          message: `expected ${seq}, the key it is stored under`,
        });
      }
    }
  }) satisfies z.ZodType<RunFile>;

/** The hash naming a run's state files, since run paths contain slashes. */
export function runStateStem(runDir: string): string {
  return createHash('sha256').update(runDir).digest('hex').slice(0, 32);
}

/** The name of `runDir`'s state file in the first format. */
export function runFileName(runDir: string): string {
  return `${runStateStem(runDir)}.json`;
}

/** Parses a run file's text; problems come back as one readable string with JSON paths. */
export function parseRunFile(text: string): Result<RunFile, string> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return err(`not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = runFileSchema.safeParse(json);
  return parsed.success ? ok(parsed.data) : err(z.prettifyError(parsed.error));
}
