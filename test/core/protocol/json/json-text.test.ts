import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  findJsonSyntaxError,
  lineAndColumn,
} from '../../../../src/core/protocol/json/json-syntax-scan.js';
import { parseJsonText } from '../../../../src/core/protocol/json/json-text.js';

const messageOf = (text: string): string => {
  const parsed = parseJsonText(text);
  assert.equal(parsed.ok, false, `${JSON.stringify(text)} parsed`);
  return parsed.ok ? '' : parsed.error.message;
};

describe('parseJsonText', () => {
  it('parses JSON and ignores a leading byte order mark', () => {
    assert.deepEqual(parseJsonText('{"a":[1,true,null]}'), {
      ok: true,
      value: { a: [1, true, null] },
    });
    assert.deepEqual(parseJsonText('\uFEFF{"a":1}'), { ok: true, value: { a: 1 } });
  });

  it('gives line and column of the offending character', () => {
    const parsed = parseJsonText('{\n  "a": 1\n  "b": 2\n}');
    assert.deepEqual(parsed, {
      ok: false,
      error: {
        line: 3,
        column: 3,
        message: `invalid JSON at line 3, column 3: expected ',' or '}' after a property value, found '"'`,
      },
    });
  });

  const mistakes: { name: string; examples: [string, string][] }[] = [
    {
      name: 'counts columns in characters, so emoji and accents count once',
      examples: [
        [
          '{"a": "😀é", x}',
          "invalid JSON at line 1, column 13: expected a property name in double quotes, found 'x'",
        ],
      ],
    },
    {
      name: 'explains the usual hand-editing mistakes',
      examples: [
        [
          '[1, 2,]',
          "invalid JSON at line 1, column 7: expected a JSON value, found ']' (JSON allows no trailing comma)",
        ],
        [
          '{"a": 1,}',
          "invalid JSON at line 1, column 9: expected a property name in double quotes, found '}' (JSON allows no trailing comma)",
        ],
        [
          "{'a': 1}",
          `invalid JSON at line 1, column 2: expected a property name in double quotes, found "'" (JSON strings use double quotes)`,
        ],
        [
          '[1, /* two */ 2]',
          "invalid JSON at line 1, column 5: expected a JSON value, found '/' (JSON has no comments)",
        ],
        [
          '{"a": 1} {"b": 2}',
          "invalid JSON at line 1, column 10: expected the end of the file after the JSON value, found '{'",
        ],
      ],
    },
    {
      name: 'names missing colons, bad literals and bad numbers',
      examples: [
        [
          '{"a" 1}',
          "invalid JSON at line 1, column 6: expected ':' after the property name, found '1'",
        ],
        ['[True]', "invalid JSON at line 1, column 2: expected a JSON value, found 'True'"],
        ['[nullable]', "invalid JSON at line 1, column 2: expected a JSON value, found 'nullable'"],
        [
          '[1.]',
          "invalid JSON at line 1, column 2: expected a number such as 1, -2.5 or 1e3, found '1.'",
        ],
        [
          '[-]',
          "invalid JSON at line 1, column 2: expected a number such as 1, -2.5 or 1e3, found '-'",
        ],
        [
          '[1, 2',
          "invalid JSON at line 1, column 6: expected ',' or ']' after an array item, found the end of the file",
        ],
      ],
    },
    {
      name: 'explains broken strings',
      examples: [
        [
          '["a\nb"]',
          `invalid JSON at line 1, column 4: expected more text or '"' in the string, found a raw line break (write it as \\n)`,
        ],
        [
          '["a\u0001"]',
          `invalid JSON at line 1, column 4: expected more text or '"' in the string, found the raw control character U+0001 (write it as \\u0001)`,
        ],
        [
          '["C:\\dir"]',
          `invalid JSON at line 1, column 5: expected an escape such as \\n, \\t, \\" or \\u00e9, found '\\d' (write a backslash itself as \\\\)`,
        ],
        [
          '["\\u12G4"]',
          "invalid JSON at line 1, column 3: expected four hex digits after \\u, found '\\u12G4'",
        ],
        [
          '{\n  "a": "unfinished',
          `invalid JSON at line 2, column 19: expected '"' to close the string that starts at line 2, column 8, found the end of the file`,
        ],
      ],
    },
  ];
  for (const c of mistakes) {
    it(c.name, () => {
      for (const [text, message] of c.examples) assert.equal(messageOf(text), message, text);
    });
  }

  it('calls a blank file empty rather than pointing into it', () => {
    assert.deepEqual(parseJsonText(' \n'), {
      ok: false,
      error: { line: 1, column: 1, message: 'expected a JSON object, found an empty file' },
    });
  });
});

describe('findJsonSyntaxError', () => {
  // Every one-character deletion and every junk insertion of a real file: the scanner must
  // agree with JSON.parse on each, or the reported spot would be invented.
  it('agrees with JSON.parse on every mutation of a sample file', () => {
    const sample = JSON.stringify(
      {
        seq: 12,
        questions: [
          { id: 'a\\b', type: 'choose-one', prompt: 'Pick "one"\n', options: ['x', 'ü', '😀'] },
          { id: 'n', type: 'yes-no', prompt: 'ok?', extra: [true, false, null, -1.5e3, 0] },
        ],
      },
      null,
      1,
    );
    const mutations: string[] = [];
    for (let i = 0; i <= sample.length; i++) {
      mutations.push(sample.slice(0, i) + sample.slice(i + 1));
      for (const junk of [',', '"', '}', ']', 'x', '0', '\\']) {
        mutations.push(sample.slice(0, i) + junk + sample.slice(i));
      }
    }
    for (const text of mutations) {
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      const fault = findJsonSyntaxError(text);
      assert.equal(fault === undefined, parses, `disagreement on ${JSON.stringify(text)}`);
      if (fault) assert.ok(fault.offset >= 0 && fault.offset <= text.length);
    }
  });

  it('survives nesting far deeper than a call stack', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(199_999)}`;
    assert.deepEqual(findJsonSyntaxError(deep), {
      offset: deep.length,
      detail: "expected ',' or ']' after an array item, found the end of the file",
    });
  });
});

describe('lineAndColumn', () => {
  it('is 1-based and restarts columns after each line feed', () => {
    assert.deepEqual(lineAndColumn('ab\ncd', 0), { line: 1, column: 1 });
    assert.deepEqual(lineAndColumn('ab\ncd', 4), { line: 2, column: 2 });
    assert.deepEqual(lineAndColumn('ab\r\ncd', 5), { line: 2, column: 2 });
  });
});
