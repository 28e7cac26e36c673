/*
 * Why a scanner of our own rather than JSON.parse's message: that message changes with the V8
 * version (Node 20 and 22 word it differently), gives no position for a truncated file, and
 * speaks to programmers. People fixing an agent's file need the line, the column, what was
 * found and what was expected, worded the same everywhere; JSON.parse still decides validity.
 */

/** Where a JSON text first breaks the grammar, and what was expected there. */
export interface JsonSyntaxFault {
  /** UTF-16 offset of the offending character (the text length at end of file). */
  offset: number;
  detail: string;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const WORD = /[A-Za-z0-9_$.+-]+/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class Fault extends Error {
  constructor(
    readonly offset: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Names what sits at `offset` for a message: `'}'`, `'undefined'`, `"'"`, `the end of the file`. */
function foundAt(text: string, offset: number): string {
  if (offset >= text.length) return 'the end of the file';
  WORD.lastIndex = offset;
  const word = WORD.exec(text)?.[0];
  const token = word ?? String.fromCodePoint(text.codePointAt(offset) ?? 0);
  const shown = token.length > 20 ? `${token.slice(0, 19)}…` : token;
  return shown === "'" ? `"'"` : `'${shown}'`;
}

const NAMED_CONTROLS: Record<string, string> = {
  '\n': 'a raw line break (write it as \\n)',
  '\r': 'a raw carriage return (write it as \\r)',
  '\t': 'a raw tab (write it as \\t)',
};

/** Names a control character that JSON forbids inside strings, and how to escape it. */
function controlName(char: string): string {
  const code = char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  return NAMED_CONTROLS[char] ?? `the raw control character U+${code} (write it as \\u${code})`;
}

/** A hint for the usual ways hand-written JSON goes wrong, keyed by the character found. */
function hintFor(text: string, offset: number): string {
  const char = text[offset];
  if (char === "'") return ' (JSON strings use double quotes)';
  if (char === '/') return ' (JSON has no comments)';
  return '';
}

/**
 * Scans a JSON text that `JSON.parse` rejected to say where and why, in stable words of our
 * own (V8's messages vary by Node version and some carry no position at all).
 * Returns `undefined` when the grammar holds.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxFault | undefined {
  try {
    scan(text);
    return undefined;
  } catch (caught) {
    if (caught instanceof Fault) return { offset: caught.offset, detail: caught.detail };
    throw caught;
  }
}

// An explicit stack instead of recursion, so a deeply nested file cannot overflow the call stack.
function scan(text: string): void {
  const stack: ('{' | '[')[] = [];
  let pos = 0;

  const skipWhitespace = (): void => {
    while (pos < text.length && WHITESPACE.has(text[pos] as string)) pos++;
  };
  const fail = (expected: string, hint = hintFor(text, pos)): never => {
    throw new Fault(pos, `expected ${expected}, found ${foundAt(text, pos)}${hint}`);
  };
  const hintAfterComma = (afterComma: boolean): string =>
    afterComma && (text[pos] === '}' || text[pos] === ']')
      ? ' (JSON allows no trailing comma)'
      : hintFor(text, pos);

  const readString = (): void => {
    const start = pos;
    pos++;
    for (;;) {
      if (pos >= text.length) {
        const { line, column } = lineAndColumn(text, start);
        fail(`'"' to close the string that starts at line ${line}, column ${column}`, '');
      }
      const char = text[pos] as string;
      if (char === '"') {
        pos++;
        return;
      }
      if (char < ' ') {
        throw new Fault(pos, `expected more text or '"' in the string, found ${controlName(char)}`);
      }
      if (char === '\\') {
        pos++;
        const escaped = text[pos];
        if (escaped !== undefined && ESCAPES.has(escaped)) {
          pos++;
        } else if (escaped === 'u') {
          HEX4.lastIndex = pos + 1;
          if (!HEX4.test(text)) {
            const found = `'${text.slice(pos - 1, pos + 5)}'`;
            throw new Fault(pos - 1, `expected four hex digits after \\u, found ${found}`);
          }
          pos += 5;
        } else {
          // point at the backslash, where the reader has to make the change
          const found = escaped === undefined ? 'the end of the file' : `'\\${escaped}'`;
          const detail = `expected an escape such as \\n, \\t, \\" or \\u00e9, found ${found}`;
          throw new Fault(pos - 1, `${detail} (write a backslash itself as \\\\)`);
        }
      } else {
        pos++;
      }
    }
  };

  const readKey = (afterComma: boolean): void => {
    if (text[pos] !== '"') fail('a property name in double quotes', hintAfterComma(afterComma));
    readString();
    skipWhitespace();
    if (text[pos] !== ':') fail("':' after the property name");
    pos++;
  };

  const readScalar = (afterComma: boolean): void => {
    const char = text[pos];
    if (char === '"') {
      readString();
      return;
    }
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, pos)) {
        WORD.lastIndex = pos;
        // `nullable` or `true1` is one bad word, not a literal followed by junk
        if ((WORD.exec(text)?.[0] ?? '') === literal) {
          pos += literal.length;
          return;
        }
      }
    }
    NUMBER.lastIndex = pos;
    const number = char === '-' || (char !== undefined && char >= '0' && char <= '9');
    if (number && NUMBER.test(text)) {
      const end = NUMBER.lastIndex;
      WORD.lastIndex = pos;
      if ((WORD.exec(text)?.[0].length ?? 0) + pos === end) {
        pos = end;
        return;
      }
      fail('a number such as 1, -2.5 or 1e3');
    }
    if (number) fail('a number such as 1, -2.5 or 1e3');
    fail('a JSON value', hintAfterComma(afterComma));
  };

  let afterComma = false;
  for (;;) {
    // a value is expected here
    skipWhitespace();
    const char = text[pos];
    if (char === '{' || char === '[') {
      pos++;
      skipWhitespace();
      afterComma = false;
      if (text[pos] === (char === '{' ? '}' : ']')) {
        pos++;
      } else {
        stack.push(char);
        if (char === '{') readKey(false);
        continue;
      }
    } else {
      readScalar(afterComma);
    }
    // a value just ended: close containers or move on to the next item
    for (;;) {
      skipWhitespace();
      const open = stack.at(-1);
      if (open === undefined) {
        if (pos < text.length) fail('the end of the file after the JSON value');
        return;
      }
      const closer = open === '{' ? '}' : ']';
      if (text[pos] === closer) {
        stack.pop();
        pos++;
        continue;
      }
      if (text[pos] !== ',') {
        fail(`',' or '${closer}' after ${open === '{' ? 'a property value' : 'an array item'}`);
      }
      pos++;
      skipWhitespace();
      if (open === '{') readKey(true);
      afterComma = open === '[';
      break;
    }
  }
}

/** 1-based line and column of a UTF-16 offset; columns count characters, as editors do. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  const column = Array.from(text.slice(lineStart, offset)).length + 1;
  return { line, column };
}
