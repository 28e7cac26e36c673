import { createHash } from 'node:crypto';

/**
 * A short stable id for one batch of one run, safe in Slack block and action ids. In shared
 * mode the run's machine (`node`) is part of it: two machines may have runs at the same path.
 * Hashing is pure (no I/O), so it lives in the core.
 */
export function batchKey(runDir: string, seq: number, node?: string): string {
  const where = node === undefined ? runDir : `${node}\n${runDir}`;
  const run = createHash('sha256').update(where).digest('base64url').slice(0, 12);
  return `${run}.${seq}`;
}

/** sha256 of a file's bytes, hex: tells a rewritten q-out file from the one presented. */
export function fingerprintOf(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The revision carried in ids: the first 8 hex characters of a q-out fingerprint. */
export const revisionOf = (fingerprint: string): string => fingerprint.slice(0, 8);
