import * as z from 'zod';
import { type BatchRecord, batchRecordSchema } from '../core/batch/batch-record.js';
import { err, ok, type Result } from '../core/result.js';
import { runStateStem } from './run-file.js';

/**
 * One run's state as read from its log: a header line naming the run, then one line per
 * saved record, the last line of a seq winning.
 */
export interface RunLog {
  runDir: string;
  /** The latest record of each seq. */
  batches: Map<number, BatchRecord>;
  /** Record lines in the text, superseded ones included (what compaction is measured by). */
  lines: number;
  /** The text ended in part of a line that is no record: an append a crash cut short, dropped. */
  tornTail: boolean;
}

const headerSchema = z.object({ version: z.literal(2), runDir: z.string().min(1) });

/** The file name of `runDir`'s log. */
export function runLogName(runDir: string): string {
  return `${runStateStem(runDir)}.jsonl`;
}

/** One line per record, each ending in a newline: what an append adds. */
export function serializeLogLines(records: Iterable<BatchRecord>): string {
  let text = '';
  for (const record of records) text += `${JSON.stringify(record)}\n`;
  return text;
}

/** A whole log holding each record once, ordered by seq: a new or compacted file. */
export function serializeRunLog(runDir: string, records: Iterable<BatchRecord>): string {
  const header = JSON.stringify({ version: 2, runDir } satisfies z.infer<typeof headerSchema>);
  return `${header}\n${serializeLogLines([...records].sort((a, b) => a.seq - b.seq))}`;
}

/** The most record lines a log of `records` records may hold before it is rewritten whole. */
export function maxLogLines(records: number): number {
  return 2 * records + 16;
}

/**
 * Parses a log's text. A last line without its newline that is no record is a torn append
 * (its put never resolved) and is dropped (`tornTail`); any other line that is not JSON, a
 * record that is the latest of its seq but not a valid one, or a bad or missing header, makes
 * the whole text an error naming the line. Lines a later line of the same seq replaced are
 * only read as JSON: they are never used, and checking them made a start with long logs slow.
 */
export function parseRunLog(text: string): Result<RunLog, string> {
  const lines = text.split('\n');
  // After a final newline split leaves '': nothing is cut off. Otherwise the last piece is.
  const unterminated = lines.pop() as string;
  const header = parseLine(lines[0] ?? unterminated, headerSchema);
  if (!header.ok) return err(`line 1 (the header): ${header.error}`);
  const { runDir } = header.value;
  /** the latest line of each seq: its JSON and its index in `lines` */
  const latest = new Map<number, { json: unknown; index: number }>();
  for (let index = 1; index < lines.length; index += 1) {
    const json = parseJson(lines[index] as string);
    if (!json.ok) return err(`line ${index + 1}: ${json.error}`);
    const seq = (json.value as { seq?: unknown } | null)?.seq;
    if (!Number.isSafeInteger(seq)) return err(`line ${index + 1}: no integer seq`);
    latest.set(seq as number, { json: json.value, index });
  }
  const batches = new Map<number, BatchRecord>();
  const take = (json: unknown, index: number): string | undefined => {
    const record = batchRecordSchema.safeParse(json);
    if (!record.success) return `line ${index + 1}: ${prettyIssues(record.error)}`;
    if (record.data.runDir !== runDir) {
      return `line ${index + 1}: runDir ${JSON.stringify(record.data.runDir)} is not the header's ${JSON.stringify(runDir)}`;
    }
    batches.set(record.data.seq, record.data);
    return undefined;
  };
  let recordLines = Math.max(lines.length - 1, 0);
  let tornTail = false;
  if (unterminated !== '' && lines.length > 0) {
    // a whole record that only lacks its newline is kept; the writer rewrites such a file
    const json = parseJson(unterminated);
    const whole = json.ok && batchRecordSchema.safeParse(json.value).success;
    if (whole) {
      latest.set((json.value as BatchRecord).seq, { json: json.value, index: lines.length });
      recordLines += 1;
    } else {
      tornTail = true;
    }
  }
  for (const [, { json, index }] of [...latest].sort(([a], [b]) => a - b)) {
    const problem = take(json, index);
    if (problem) return err(problem);
  }
  return ok({ runDir, batches, lines: recordLines, tornTail });
}

function parseJson(line: string): Result<unknown, string> {
  try {
    return ok(JSON.parse(line) as unknown);
  } catch (error) {
    return err(`not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

const prettyIssues = (error: z.ZodError): string => z.prettifyError(error).replace(/\n/g, ' ');

function parseLine<T>(line: string, schema: z.ZodType<T>): Result<T, string> {
  const json = parseJson(line);
  if (!json.ok) return json;
  const parsed = schema.safeParse(json.value);
  return parsed.success ? ok(parsed.data) : err(prettyIssues(parsed.error));
}
