import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MIN_TOKEN_LENGTH, parseAskTokens } from '../../../src/core/remote/ask-tokens.js';

const T1 = '0123456789abcdef0123456789abcdef';
const T2 = 'fedcba9876543210fedcba9876543210';

describe('parseAskTokens', () => {
  test('one "<name> <token>" per line; comments, blank lines and spaces skipped; revoked marked', () => {
    const read = parseAskTokens(
      `# the team\n\n  ann-laptop   ${T1}  \r\nci.runner@eu ${T2} revoked\n`,
    );
    assert.deepEqual(read, {
      ok: true,
      value: [
        { name: 'ann-laptop', token: T1, revoked: false },
        { name: 'ci.runner@eu', token: T2, revoked: true },
      ],
    });
    assert.deepEqual(parseAskTokens(''), { ok: true, value: [] });
  });

  test('every bad line is told by its number, never quoting a token', () => {
    const short = 'abc123';
    const read = parseAskTokens(
      [
        `ann ${T1}`,
        `lonely`,
        `-dash ${T2}`,
        `bob ${short}`,
        `carol ${T2} gone`,
        `ann ${'9'.repeat(40)}`,
        `dave ${T1}`,
        `erin ${'x'.repeat(31)}!`,
      ].join('\n'),
    );
    assert.ok(!read.ok);
    assert.deepEqual(read.error, [
      'line 2 is not "<name> <token>" or "<name> <token> revoked" (1 words)',
      'line 3: the name must be 1 to 63 letters, digits, ".", "_", "@" or "-", starting with a letter or digit',
      `line 4: the token (the second word) must be at least ${MIN_TOKEN_LENGTH} characters of letters, digits and ._~+/=- (make one with: openssl rand -hex 32)`,
      'line 5 is not "<name> <token>" or "<name> <token> revoked" (3 words)',
      'line 6: its name is on an earlier line too (give a new token a new name, e.g. ann-laptop-2)',
      'line 7: its token is on an earlier line too',
      `line 8: the token (the second word) must be at least ${MIN_TOKEN_LENGTH} characters of letters, digits and ._~+/=- (make one with: openssl rand -hex 32)`,
    ]);
    const said = read.error.join('\n');
    for (const secret of [T1, T2, short]) assert.ok(!said.includes(secret));
  });

  test('a line with its columns swapped is refused without quoting its token', () => {
    const swapped = '0123456789abcdef0123456789abcdef0123456789abcdef';
    const read = parseAskTokens(`${swapped} ann-laptop\n${swapped} revoked\n`);
    assert.ok(!read.ok);
    assert.equal(read.error.length, 2);
    assert.ok(!read.error.join('\n').includes(swapped), read.error.join('\n'));
  });
});
