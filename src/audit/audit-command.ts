import { auditLogOf, resolveStateDir } from '../config/config-schema.js';
import { type AuditFilter, formatAuditLine, matchesAudit } from '../core/audit/audit-entry.js';
import type { AuditArgs } from './audit-args.js';
import { readAuditLog } from './audit-log.js';

/** What `audit` reads and writes. */
export interface AuditIo {
  env: Record<string, string | undefined>;
  cwd: string;
  out: (line: string) => void;
  err: (line: string) => void;
  now: () => Date;
}

const given = (value: string | undefined) =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

/**
 * Prints the decisions in the audit log (`RELAY_AUDIT_LOG`, else the state folder's
 * `audit.jsonl`), oldest first, those `args` ask for: a line each, or JSON lines. Lines that
 * are not entries are named on stderr. Exit 0 printed (or nothing recorded yet), 1 the log
 * cannot be read.
 */
export async function runAudit(args: AuditArgs, io: AuditIo): Promise<number> {
  const stateDir = resolveStateDir(given(io.env.RELAY_STATE_DIR), io.cwd);
  const file = auditLogOf(given(io.env.RELAY_AUDIT_LOG), stateDir, io.cwd);
  let read: Awaited<ReturnType<typeof readAuditLog>>;
  try {
    read = await readAuditLog(file);
  } catch (error) {
    io.err(
      `Cannot read the audit log ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
  const filter: AuditFilter = {
    ...(args.run !== undefined ? { run: args.run } : {}),
    ...(args.user !== undefined ? { user: args.user } : {}),
    ...(args.sinceMs !== undefined
      ? { since: new Date(io.now().getTime() - args.sinceMs).toISOString() }
      : {}),
  };
  const shown = read.entries.filter((entry) => matchesAudit(entry, filter));
  if (read.entries.length === 0 && read.unreadable.length === 0) {
    io.err(`No decisions recorded yet in ${file}.`);
  }
  for (const entry of shown) io.out(args.json ? JSON.stringify(entry) : formatAuditLine(entry));
  if (read.unreadable.length > 0) {
    const named = read.unreadable.slice(0, 5).join(', ');
    const more = read.unreadable.length > 5 ? ` and ${read.unreadable.length - 5} more` : '';
    io.err(
      `${read.unreadable.length} lines are not audit entries and were left out: ${named}${more}`,
    );
  }
  return 0;
}
