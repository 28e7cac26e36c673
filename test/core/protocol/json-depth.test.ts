import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findTooDeep } from '../../../src/core/protocol/json-depth.js';
import { parseJsonText } from '../../../src/core/protocol/json-text.js';
import { QA_LIMITS } from '../../../src/core/protocol/qa-limits.js';

const nested = (levels: number, inner = '1') =>
  `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;

describe('findTooDeep', () => {
  it('accepts nesting up to the limit and points at the first container past it', () => {
    assert.equal(findTooDeep(nested(3), 3), undefined);
    assert.deepEqual(findTooDeep(nested(4), 3), { offset: 3, path: [0, 0, 0] });
  });

  it('follows keys and indices to the spot, decoding escaped keys', () => {
    const text = '{"a": 1, "b\\u0021": [0, {"c": {"d": {}}}]}';
    assert.deepEqual(findTooDeep(text, 4), { offset: 36, path: ['b!', 1, 'c', 'd'] });
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    assert.equal(findTooDeep('{"a": "[[[[\\"[[[[", "b": ["]]]]{{{{"]}', 2), undefined);
  });

  it('leaves broken text to the parser', () => {
    assert.equal(findTooDeep('[ "unterminated [[[[', 2), undefined);
    assert.equal(findTooDeep(']]]]', 1), undefined);
  });

  it('scans a 4 MiB file nested a million levels deep without recursing', () => {
    const text = nested(2_000_000).slice(0, QA_LIMITS.fileBytes);
    const fault = findTooDeep(text, QA_LIMITS.jsonDepth);
    assert.equal(fault?.offset, QA_LIMITS.jsonDepth);
    assert.equal(fault?.path.length, QA_LIMITS.jsonDepth);
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
