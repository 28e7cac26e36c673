import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scanJsonStructure } from '../../../../src/core/protocol/json/json-structure.js';
import { parseJsonText } from '../../../../src/core/protocol/json/json-text.js';
import { QA_LIMITS } from '../../../../src/core/protocol/qa-limits.js';

const nested = (levels: number, inner = '1') =>
  `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;

const tooDeep = (text: string, maxDepth: number) => scanJsonStructure(text, maxDepth).tooDeep;
const repeatedKey = (text: string) => scanJsonStructure(text, 64).repeatedKey;

describe('scanJsonStructure: nesting', () => {
  it('accepts nesting up to the limit and points at the first container past it', () => {
    assert.equal(tooDeep(nested(3), 3), undefined);
    assert.deepEqual(tooDeep(nested(4), 3), { offset: 3, path: [0, 0, 0] });
  });

  it('follows keys and indices to the spot, decoding escaped keys', () => {
    const text = '{"a": 1, "b\\u0021": [0, {"c": {"d": {}}}]}';
    assert.deepEqual(tooDeep(text, 4), { offset: 36, path: ['b!', 1, 'c', 'd'] });
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    assert.equal(tooDeep('{"a": "[[[[\\"[[[[", "b": ["]]]]{{{{"]}', 2), undefined);
  });

  it('leaves broken text to the parser', () => {
    assert.equal(tooDeep('[ "unterminated [[[[', 2), undefined);
    assert.equal(tooDeep(']]]]', 1), undefined);
  });

  it('scans a 4 MiB file nested a million levels deep without recursing', () => {
    const text = nested(2_000_000).slice(0, QA_LIMITS.fileBytes);
    const fault = tooDeep(text, QA_LIMITS.jsonDepth);
    assert.equal(fault?.offset, QA_LIMITS.jsonDepth);
    assert.equal(fault?.path.length, QA_LIMITS.jsonDepth);
  });
});

describe('scanJsonStructure: repeated keys', () => {
  it('finds the second of two equal keys, with its path and place', () => {
    assert.deepEqual(repeatedKey('{"seq":1,"seq":2}'), { offset: 9, path: ['seq'] });
    const text = '{"questions": [{"id": "a"}, {"id": "b", "prompt": "x", "id": "c"}]}';
    assert.deepEqual(repeatedKey(text), { offset: 55, path: ['questions', 1, 'id'] });
  });

  it('compares keys decoded, as the parser does', () => {
    assert.deepEqual(repeatedKey('{"a": 1, "\\u0061": 2}'), { offset: 9, path: ['a'] });
  });

  it('reports the first repeat only, and none for equal keys in different objects', () => {
    assert.equal(
      repeatedKey('{"a": {"b": 1}, "c": {"b": 2}, "d": [{"b": 3}, {"b": 4}]}'),
      undefined,
    );
    assert.deepEqual(repeatedKey('{"x": {"b": 1, "b": 2}, "x": 3}'), {
      offset: 15,
      path: ['x', 'b'],
    });
  });

  it('does not take strings that are values for keys', () => {
    assert.equal(repeatedKey('{"a": "a", "b": ["a", "b"], "c": {"a": "c"}}'), undefined);
  });
});

describe('parseJsonText: nesting', () => {
  it('refuses 5,000 levels before parsing, with the path and the place', () => {
    const text = `{"seq": 1,\n "extra": ${nested(5000)}}`;
    assert.deepEqual(parseJsonText(text), {
      ok: false,
      error: {
        line: 2,
        column: 74,
        path: `extra${'[0]'.repeat(31)}…`,
        message: 'expected at most 64 levels of nesting, found more at line 2, column 74',
      },
    });
  });

  it('parses 64 levels', () => {
    assert.equal(parseJsonText(nested(64)).ok, true);
  });
});

describe('parseJsonText: repeated keys', () => {
  it('refuses a key an object holds twice, at its path, instead of keeping the last', () => {
    assert.deepEqual(parseJsonText('{\n  "seq": 1,\n  "seq": 2\n}'), {
      ok: false,
      error: {
        line: 3,
        column: 3,
        path: 'seq',
        message:
          'expected "seq" once in its object, found it again at line 3, column 3; JSON readers keep only one of the two values, and not all the same one, so remove the other',
      },
    });
  });

  it('reports broken syntax before a repeated key', () => {
    const parsed = parseJsonText('{"a": 1, "a": 2,}');
    assert.ok(!parsed.ok);
    assert.match(parsed.error.message, /^invalid JSON at line 1, column 17/);
  });
});
