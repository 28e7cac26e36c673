import type { ReadOptions } from '../cli/read-options.js';
import { parseDuration } from '../config/parse-duration.js';
import { err, ok, type Result } from '../core/result.js';

/** `audit`'s command line, read. */
export interface AuditArgs {
  run?: string;
  user?: string;
  /** how far back, in ms */
  sinceMs?: number;
  json: boolean;
}

/** The options `audit` takes besides `--help`. */
export const AUDIT_OPTIONS = {
  run: { type: 'string' },
  user: { type: 'string' },
  since: { type: 'string' },
  json: { type: 'boolean' },
} as const;

type AuditOptions = Extract<ReadOptions<typeof AUDIT_OPTIONS>, { kind: 'read' }>;

/** Checks what `readOptions` read for `audit`. */
export function toAuditArgs({ values, positionals }: AuditOptions): Result<AuditArgs, string> {
  if (positionals.length > 0) return err(`takes no arguments (got ${positionals.join(' ')})`);
  const args: AuditArgs = {
    json: values.json === true,
    ...(values.run !== undefined ? { run: values.run } : {}),
    ...(values.user !== undefined ? { user: values.user } : {}),
  };
  if (values.since === undefined) return ok(args);
  const since = parseDuration(values.since);
  return since.ok ? ok({ ...args, sinceMs: since.value }) : err(`--since: ${since.error}`);
}
