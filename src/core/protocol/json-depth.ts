/** Where a JSON text first nests deeper than allowed. */
export interface DepthFault {
  /** UTF-16 offset of the `{` or `[` one level too deep */
  offset: number;
  /** keys and indices leading to that container */
  path: (string | number)[];
}

interface Frame {
  open: '{' | '[';
  /** the key being read or last read, in an object */
  key: string | undefined;
  expectingKey: boolean;
  /** the item being read, in an array */
  index: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Where the string that starts before `from` ends: its unescaped `"`, or -1 for none. */
function closingQuote(text: string, from: number): number {
  let at = text.indexOf('"', from);
  while (at !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return -1;
}

/** A key as JSON spells it, decoded; a key with a broken escape stays as written. */
function decodeKey(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

/**
 * Finds the first container nested more than `maxDepth` levels deep, without parsing: a single
 * pass that only tracks brackets, strings and the current path. It runs before `JSON.parse`, so
 * a file nested thousands of levels deep is refused before any of it reaches code that
 * recurses. It does not check the grammar; a broken text is left to the parser to report.
 */
export function findTooDeep(text: string, maxDepth: number): DepthFault | undefined {
  const stack: Frame[] = [];
  let pos = 0;
  while (pos < text.length) {
    const code = text.charCodeAt(pos);
    if (code === QUOTE) {
      const end = closingQuote(text, pos + 1);
      if (end === -1) return undefined; // unterminated: the parser says where
      const top = stack.at(-1);
      if (top?.open === '{' && top.expectingKey) top.key = decodeKey(text.slice(pos, end + 1));
      pos = end + 1;
      continue;
    }
    const char = text[pos];
    if (char === '{' || char === '[') {
      if (stack.length >= maxDepth) {
        return {
          offset: pos,
          path: stack.map((frame) => (frame.open === '[' ? frame.index : (frame.key ?? ''))),
        };
      }
      stack.push({ open: char, key: undefined, expectingKey: char === '{', index: 0 });
    } else if (char === '}' || char === ']') {
      stack.pop();
    } else if (char === ',' || char === ':') {
      const top = stack.at(-1);
      if (top?.open === '[' && char === ',') top.index += 1;
      if (top?.open === '{') top.expectingKey = char === ',';
    }
    pos += 1;
  }
  return undefined;
}
