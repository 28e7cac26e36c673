import { err, ok, type Result } from '../../result.js';
import { formatJsonPath } from '../protocol-error.js';
import { QA_LIMITS } from '../qa-limits.js';
import { quote } from './describe-value.js';
import { scanJsonStructure } from './json-structure.js';
import { findJsonSyntaxError, lineAndColumn } from './json-syntax-scan.js';

/** Why a text is not JSON the relay reads, pointing at the spot an editor would show. */
export interface JsonTextError {
  line: number;
  column: number;
  /** e.g. `invalid JSON at line 3, column 7: expected ',' or '}' after a property value, found '"'` */
  message: string;
  /** JSON path of the value at fault, when it is known (nesting too deep, a repeated key) */
  path?: string;
}

// A path 64 levels deep with long keys would bury the message it belongs to.
const PATH_SHOWN = 100;

/** The path's leading segments that fit in `PATH_SHOWN` characters, then `…` if any are left. */
function shortPath(path: readonly (string | number)[]): string {
  let shown = '';
  for (let count = 1; count <= path.length; count += 1) {
    const next = formatJsonPath(path.slice(0, count));
    if (next.length > PATH_SHOWN) return `${shown}…`;
    shown = next;
  }
  return shown;
}

const BYTE_ORDER_MARK = '\uFEFF';
const V8_POSITION = /at position (\d+)/;

/**
 * Parses a JSON text, or says where it breaks with a 1-based line and column. A leading byte
 * order mark is ignored, since some editors add one and it is invisible. Nesting deeper than
 * `QA_LIMITS.jsonDepth` is refused before parsing, with the path where it goes too deep; a key
 * an object holds twice is refused after parsing, with its path: `JSON.parse` keeps the last
 * of the two without a word, and other readers (an agent's, o7's) may keep the first.
 */
export function parseJsonText(text: string): Result<unknown, JsonTextError> {
  const body = text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
  if (body.trim() === '') {
    return err({ line: 1, column: 1, message: 'expected a JSON object, found an empty file' });
  }
  const { tooDeep, repeatedKey } = scanJsonStructure(body, QA_LIMITS.jsonDepth);
  if (tooDeep !== undefined) {
    const { line, column } = lineAndColumn(body, tooDeep.offset);
    return err({
      line,
      column,
      path: shortPath(tooDeep.path),
      message: `expected at most ${QA_LIMITS.jsonDepth} levels of nesting, found more at line ${line}, column ${column}`,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (caught) {
    const fault = findJsonSyntaxError(body) ?? fromV8(caught, body);
    const { line, column } = lineAndColumn(body, fault.offset);
    return err({
      line,
      column,
      message: `invalid JSON at line ${line}, column ${column}: ${fault.detail}`,
    });
  }
  if (repeatedKey !== undefined) {
    const { line, column } = lineAndColumn(body, repeatedKey.offset);
    const key = quote(String(repeatedKey.path.at(-1)));
    return err({
      line,
      column,
      path: shortPath(repeatedKey.path),
      message: `expected ${key} once in its object, found it again at line ${line}, column ${column}; JSON readers keep only one of the two values, and not all the same one, so remove the other`,
    });
  }
  return ok(value);
}

// Only reached if our scanner and V8 ever disagree; V8's own words are better than nothing.
function fromV8(caught: unknown, text: string): { offset: number; detail: string } {
  const message = caught instanceof Error ? caught.message : String(caught);
  const position = V8_POSITION.exec(message)?.[1];
  return { offset: position === undefined ? text.length : Number(position), detail: message };
}
