import { createHash } from 'node:crypto';
import { z } from 'zod';
import { BATCH_STATUSES, type BatchRecord, type HandOff } from '../core/batch/batch-record.js';
import { idRecordSchema } from '../core/protocol/questions/id-record.js';
import type { Answer } from '../core/protocol/questions/question.js';
import { err, ok, type Result } from '../core/result.js';
import { NODE_NAME } from '../redis/node-name.js';

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

const answerSchema: z.ZodType<Answer> = z.union([z.string(), z.array(z.string()), z.boolean()]);

const handOffSchema: z.ZodType<HandOff> = z.object({
  from: z.string().min(1),
  to: z.string().min(1),
  at: z.string(),
  note: z.string().optional(),
  undelivered: z.string().optional(),
});

// Typed against BatchRecord key by key: a field added there but not here fails the typecheck,
// instead of being dropped silently by every put.
const batchRecordShape = {
  key: z.string().min(1),
  node: z.string().regex(NODE_NAME).optional(),
  runDir: z.string().min(1),
  seq: z.number().int().positive(),
  fingerprint: z.string(),
  status: z.enum(BATCH_STATUSES),
  // keyed by question ids from files: kept in records without a prototype
  drafts: idRecordSchema(answerSchema),
  presentation: z.record(z.string(), z.unknown()).optional(),
  answeredBy: z.string().optional(),
  answeredAt: z.string().optional(),
  followUps: idRecordSchema(z.string()).optional(),
  problem: z.string().optional(),
  note: z.string().optional(),
  undeliverable: z
    .object({ code: z.string(), fix: z.string(), at: z.string(), told: z.boolean() })
    .optional(),
  answersPending: z.literal(true).optional(),
  handoffs: z.array(handOffSchema).optional(),
  assignee: z.string().optional(),
  claimedBy: z.string().optional(),
  nextReminderAt: z.string().optional(),
  reminders: z.number().int().nonnegative().optional(),
  escalateAt: z.string().optional(),
  escalated: z.boolean().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
} satisfies { [K in keyof BatchRecord]-?: z.ZodType<BatchRecord[K]> };

/** One batch record as stored; also checks records handed to `put`, so every file reloads. */
export const batchRecordSchema = z.object(batchRecordShape) satisfies z.ZodType<BatchRecord>;

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
