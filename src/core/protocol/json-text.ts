import { err, ok, type Result } from '../result.js';
import { findJsonSyntaxError, lineAndColumn } from './json-syntax-scan.js';

/** Why a text is not JSON, pointing at the spot an editor would show. */
export interface JsonTextError {
  line: number;
  column: number;
  /** e.g. `invalid JSON at line 3, column 7: expected ',' or '}' after a property value, found '"'` */
  message: string;
}

const BYTE_ORDER_MARK = '\uFEFF';
const V8_POSITION = /at position (\d+)/;

/**
 * Parses a JSON text, or says where it breaks with a 1-based line and column. A leading byte
 * order mark is ignored, since some editors add one and it is invisible.
 */
export function parseJsonText(text: string): Result<unknown, JsonTextError> {
  const body = text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
  if (body.trim() === '') {
    return err({ line: 1, column: 1, message: 'expected a JSON object, found an empty file' });
  }
  try {
    return ok(JSON.parse(body));
  } catch (caught) {
    const fault = findJsonSyntaxError(body) ?? fromV8(caught, body);
    const { line, column } = lineAndColumn(body, fault.offset);
    return err({
      line,
      column,
      message: `invalid JSON at line ${line}, column ${column}: ${fault.detail}`,
    });
  }
}

// Only reached if our scanner and V8 ever disagree; V8's own words are better than nothing.
function fromV8(caught: unknown, text: string): { offset: number; detail: string } {
  const message = caught instanceof Error ? caught.message : String(caught);
  const position = V8_POSITION.exec(message)?.[1];
  return { offset: position === undefined ? text.length : Number(position), detail: message };
}
