import { open, readFile, rename, stat } from 'node:fs/promises';
import type { Logger } from 'pino';
import { type AuditEntry, auditEntrySchema } from '../core/audit/audit-entry.js';
import { errnoCode } from '../fs/errno.js';

/** Size past which the log is rotated: `audit.jsonl` becomes `audit.jsonl.1`, and so on. */
const ROTATE_AT_BYTES = 10 * 1024 * 1024;

/** How many rotated logs are kept besides the current one. */
const ROTATED_KEPT = 5;

/** The default audit log's name in `RELAY_STATE_DIR`. */
export const AUDIT_FILE = 'audit.jsonl';

/** Appends decisions to the audit log, one JSON line each, written to disk before the next. */
export interface AuditLog {
  /** Resolves once this entry (and every one before it) is on disk, or its failure logged. */
  append(entry: AuditEntry): Promise<void>;
  /** Resolves once every entry appended so far is on disk. */
  flushed(): Promise<void>;
}

/**
 * The audit log at `file`. Lines are appended in order, each fsynced; one that cannot be
 * written is said in the log with the entry (so it is not lost from sight) and the next is
 * tried as usual. Past 10 MiB the file is rotated, keeping five.
 */
export function createAuditLog(
  file: string,
  log: Logger,
  rotateAtBytes: number = ROTATE_AT_BYTES,
): AuditLog {
  let chain = Promise.resolve();

  async function rotateIfFull() {
    const size = await stat(file).then(
      (found) => found.size,
      () => 0,
    );
    if (size < rotateAtBytes) return;
    for (let n = ROTATED_KEPT - 1; n >= 1; n -= 1) {
      await rename(`${file}.${n}`, `${file}.${n + 1}`).catch(() => undefined);
    }
    await rename(file, `${file}.1`);
  }

  async function write(entry: AuditEntry) {
    await rotateIfFull();
    const handle = await open(file, 'a', 0o600);
    try {
      await handle.write(`${JSON.stringify(entry)}\n`);
      await handle.datasync();
    } finally {
      await handle.close();
    }
  }

  return {
    append(entry) {
      chain = chain.then(() =>
        write(entry).catch((err: unknown) => {
          log.error({ err, file, entry }, 'could not write the decision to the audit log');
        }),
      );
      return chain;
    },
    flushed: () => chain,
  };
}

/** What reading the audit log gave: its entries, oldest first, and lines that are not entries. */
export interface AuditRead {
  entries: AuditEntry[];
  /** `file:line` of each line that could not be read */
  unreadable: string[];
}

/** Reads the audit log and its rotated files, oldest first. */
export async function readAuditLog(file: string): Promise<AuditRead> {
  const files = [
    ...Array.from({ length: ROTATED_KEPT }, (_, i) => `${file}.${ROTATED_KEPT - i}`),
    file,
  ];
  const entries: AuditEntry[] = [];
  const unreadable: string[] = [];
  for (const name of files) {
    let text: string;
    try {
      text = await readFile(name, 'utf8');
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') continue;
      throw error;
    }
    text.split('\n').forEach((line, index) => {
      if (line.trim() === '') return;
      try {
        const parsed = auditEntrySchema.safeParse(JSON.parse(line));
        if (parsed.success) entries.push(parsed.data);
        else unreadable.push(`${name}:${index + 1}`);
      } catch {
        unreadable.push(`${name}:${index + 1}`);
      }
    });
  }
  return { entries, unreadable };
}
