import type { ProtocolProblem } from './protocol-error.js';
import { parseQaFileName, type QaFileName } from './run-folder.js';
import { isRecord } from './schema-messages.js';

/** The base name of a path, whichever separator it uses. */
export const baseNameOf = (filePath: string): string => filePath.split(/[\\/]/).at(-1) ?? filePath;

/**
 * The `seq` field must equal the NNN of the file name. Checked on the raw data, and only when
 * `seq` is itself valid, so it never doubles a type problem; names that are not protocol
 * names of `kind` are not checked.
 */
export function checkSeqMatchesName(
  data: unknown,
  filePath: string,
  kind: QaFileName['kind'],
): ProtocolProblem[] {
  const name = baseNameOf(filePath);
  const parsed = parseQaFileName(name);
  if (parsed?.kind !== kind || !isRecord(data)) return [];
  const { seq } = data;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1 || seq === parsed.seq) {
    return [];
  }
  return [
    { path: 'seq', message: `expected ${parsed.seq} to match the file name ${name}, found ${seq}` },
  ];
}
