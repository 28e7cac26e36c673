/** A spot in a JSON text found by `scanJsonStructure`. */
export interface StructureFault {
  /** UTF-16 offset: the `{` or `[` one level too deep, or the `"` of the repeated key */
  offset: number;
  /** keys and indices leading to that container or key (the key included) */
  path: (string | number)[];
}

/** What `scanJsonStructure` found; both absent when neither is there. */
export interface JsonStructure {
  /** the first container nested deeper than allowed; the scan stops there */
  tooDeep?: StructureFault;
  /** the first key an object holds twice; trustworthy only when the text is valid JSON */
  repeatedKey?: StructureFault;
}

interface Frame {
  open: '{' | '[';
  /** the key being read or last read, in an object */
  key: string | undefined;
  /** the keys read so far, in an object (made at its first key) */
  keys: Set<string> | undefined;
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

const pathOf = (stack: readonly Frame[]): (string | number)[] =>
  stack.map((frame) => (frame.open === '[' ? frame.index : (frame.key ?? '')));

/**
 * One pass over a JSON text that only tracks brackets, strings, keys and the current path,
 * without parsing. It runs before `JSON.parse`, so a file nested thousands of levels deep is
 * refused before any of it reaches code that recurses; and it finds the key an object repeats
 * (`{"seq": 1, "seq": 2}`), which `JSON.parse` resolves silently by keeping the last.
 * Keys are compared decoded, as the parser compares them (`"a"` and `"\u0061"` are one key).
 * It does not check the grammar: on broken text the parser's report comes first.
 */
export function scanJsonStructure(text: string, maxDepth: number): JsonStructure {
  const stack: Frame[] = [];
  let repeatedKey: StructureFault | undefined;
  let pos = 0;
  while (pos < text.length) {
    const code = text.charCodeAt(pos);
    if (code === QUOTE) {
      const end = closingQuote(text, pos + 1);
      if (end === -1) break; // unterminated: the parser says where
      const top = stack.at(-1);
      if (top?.open === '{' && top.expectingKey) {
        const key = decodeKey(text.slice(pos, end + 1));
        top.key = key;
        top.keys ??= new Set();
        if (repeatedKey === undefined && top.keys.has(key)) {
          repeatedKey = { offset: pos, path: pathOf(stack) };
        }
        top.keys.add(key);
      }
      pos = end + 1;
      continue;
    }
    const char = text[pos];
    if (char === '{' || char === '[') {
      if (stack.length >= maxDepth) {
        return { tooDeep: { offset: pos, path: pathOf(stack) } };
      }
      stack.push({
        open: char,
        key: undefined,
        keys: undefined,
        expectingKey: char === '{',
        index: 0,
      });
    } else if (char === '}' || char === ']') {
      stack.pop();
    } else if (char === ',' || char === ':') {
      const top = stack.at(-1);
      if (top?.open === '[' && char === ',') top.index += 1;
      if (top?.open === '{') top.expectingKey = char === ',';
    }
    pos += 1;
  }
  return repeatedKey === undefined ? {} : { repeatedKey };
}
