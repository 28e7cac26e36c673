import { err, ok, type Result } from '../../result.js';
import type { ProtocolProblem } from '../protocol-error.js';
import { findReservedKeys } from '../questions/reserved-keys.js';
import { parseJsonText } from './json-text.js';

/**
 * The JSON value of a protocol file, or why it cannot be read at all: broken syntax, nesting
 * past the limit, or a `__proto__` field. Only a value that passes goes on to the schema.
 */
export function parseProtocolJson(text: string): Result<unknown, ProtocolProblem[]> {
  const json = parseJsonText(text);
  if (!json.ok) return err([{ path: json.error.path ?? '', message: json.error.message }]);
  const reserved = findReservedKeys(json.value);
  return reserved.length > 0 ? err(reserved) : ok(json.value);
}
