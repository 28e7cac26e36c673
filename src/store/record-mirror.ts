import * as z from 'zod';
import { type BatchRecord, batchRecordSchema } from '../core/batch/batch-record.js';

/** A record as Redis holds it, with the version its last write got. */
export interface VersionedRecord {
  record: BatchRecord;
  version: number;
}

/**
 * Reads a stored value, `<version>|<record JSON>`, checked like any file the relay reads.
 * The record must name its node. Problems come back as a sentence.
 */
export function parseStoredRecord(value: string): VersionedRecord | string {
  const bar = value.indexOf('|');
  const version = Number(value.slice(0, bar));
  if (bar < 1 || !Number.isSafeInteger(version) || version < 1) {
    return 'it does not start with a version number and |';
  }
  let json: unknown;
  try {
    json = JSON.parse(value.slice(bar + 1));
  } catch (error) {
    return `its record is not JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  const parsed = batchRecordSchema.safeParse(json);
  if (!parsed.success) return `its record is not valid:\n${z.prettifyError(parsed.error)}`;
  if (parsed.data.node === undefined) return 'its record names no node';
  return { record: parsed.data, version };
}

/**
 * One relay's copy of every batch record in Redis, so reads need no round trip. Changes come
 * from this relay's writes, from the change feed and from full reloads, in any order: each
 * record keeps the highest version seen, and a run's forget (with its own version) wins over
 * anything older of that run.
 */
export interface RecordMirror {
  get(key: string): VersionedRecord | undefined;
  forRun(node: string, runDir: string): BatchRecord[];
  all(): BatchRecord[];
  /** Takes `entry` unless something as new or newer is known. Says whether it was taken. */
  apply(entry: VersionedRecord): boolean;
  /** Drops the record under `key` (found gone while the mirror still had it). */
  drop(key: string): void;
  /** A run of a node was forgotten at `version`: older records of it go, and stay gone. */
  forgetRun(node: string, runDir: string, version: number): void;
  /**
   * A full reload: `snapshot` is everything Redis held, read after the clock was at
   * `clockBefore`. Records the snapshot lacks that are no newer than that are gone.
   */
  reload(snapshot: VersionedRecord[], clockBefore: number): void;
  readonly size: number;
}

const runRef = (node: string, runDir: string) => `${node}\n${runDir}`;

/** An empty mirror. */
export function createRecordMirror(): RecordMirror {
  const byKey = new Map<string, VersionedRecord>();
  // node + run → seq → key, for forRun and for a seq that changes key
  const byRun = new Map<string, Map<number, string>>();
  const forgottenAt = new Map<string, number>();

  const remove = (key: string) => {
    const entry = byKey.get(key);
    if (!entry) return;
    byKey.delete(key);
    const ref = runRef(entry.record.node ?? '', entry.record.runDir);
    const seqs = byRun.get(ref);
    if (seqs?.get(entry.record.seq) === key) seqs.delete(entry.record.seq);
    if (seqs?.size === 0) byRun.delete(ref);
  };

  const apply = (entry: VersionedRecord): boolean => {
    const { record, version } = entry;
    const ref = runRef(record.node ?? '', record.runDir);
    if ((forgottenAt.get(ref) ?? 0) >= version) return false;
    const known = byKey.get(record.key);
    if (known && known.version >= version) return false;
    const seqs = byRun.get(ref) ?? new Map<number, string>();
    const previousKey = seqs.get(record.seq);
    if (previousKey !== undefined && previousKey !== record.key) {
      const previous = byKey.get(previousKey);
      if (previous && previous.version >= version) return false;
      remove(previousKey);
    }
    if (known) remove(record.key);
    byKey.set(record.key, entry);
    seqs.set(record.seq, record.key);
    byRun.set(ref, seqs);
    return true;
  };

  return {
    get: (key) => byKey.get(key),
    forRun(node, runDir) {
      const seqs = byRun.get(runRef(node, runDir));
      if (!seqs) return [];
      return [...seqs.values()]
        .map((key) => byKey.get(key)?.record)
        .filter((r): r is BatchRecord => r !== undefined)
        .sort((a, b) => a.seq - b.seq);
    },
    all: () => [...byKey.values()].map((entry) => entry.record),
    apply,
    drop: remove,
    forgetRun(node, runDir, version) {
      const ref = runRef(node, runDir);
      forgottenAt.set(ref, Math.max(version, forgottenAt.get(ref) ?? 0));
      for (const key of [...(byRun.get(ref)?.values() ?? [])]) {
        if ((byKey.get(key)?.version ?? 0) < version) remove(key);
      }
    },
    reload(snapshot, clockBefore) {
      const seen = new Set<string>();
      for (const entry of snapshot) {
        seen.add(entry.record.key);
        apply(entry);
      }
      for (const [key, entry] of [...byKey]) {
        if (!seen.has(key) && entry.version <= clockBefore) remove(key);
      }
      // Every change up to clockBefore is in the snapshot or was delivered before it (the
      // feed and the replies share one connection), so older forgets need no memory.
      for (const [ref, version] of [...forgottenAt]) {
        if (version <= clockBefore) forgottenAt.delete(ref);
      }
    },
    get size() {
      return byKey.size;
    },
  };
}
