import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeMrkdwn } from '../../../../src/core/slack/text/escape-mrkdwn.js';
import * as textCut from '../../../../src/core/slack/text/text-cut.js';

describe('truncatePlain', () => {
  it('keeps short text and cuts long text to the limit ending in …', () => {
    assert.equal(textCut.truncatePlain('short', 75), 'short');
    const cut = textCut.truncatePlain('x'.repeat(100), 75);
    assert.equal(cut.length, 75);
    assert.ok(cut.endsWith('…'));
  });

  it('never splits a surrogate pair', () => {
    const cut = textCut.truncatePlain(`${'a'.repeat(73)}😀😀`, 75);
    assert.equal(cut, `${'a'.repeat(73)}…`);
    assert.ok(textCut.truncatePlainStart(`😀${'b'.repeat(10)}`, 10).startsWith('…b'));
  });
});

describe('cutEscaped and splitEscaped', () => {
  it('cuts before an entity rather than through it', () => {
    assert.deepEqual(textCut.cutEscaped('ab&cd', 4), { text: 'ab', kept: 2 });
    assert.deepEqual(textCut.cutEscaped('ab&cd', 7), { text: 'ab&amp;', kept: 3 });
  });

  it('splits into escaped chunks within the limit that rejoin to the whole', () => {
    const raw = `${'word <&> '.repeat(700)}end`;
    const chunks = textCut.splitEscaped(raw, 3000);
    assert.ok(chunks.length > 1);
    assert.ok(chunks.every((c) => c.length <= 3000 && c.length > 0));
    assert.equal(chunks.join(''), escapeMrkdwn(raw));
    assert.equal(textCut.splitForEscaping(raw, 3000).join(''), raw);
  });

  it('splits between words when it can', () => {
    const chunks = textCut.splitPlain('aaaa bbbb cccc', 7);
    assert.deepEqual(chunks, ['aaaa ', 'bbbb ', 'cccc']);
  });

  it('splits text without spaces at the limit', () => {
    assert.deepEqual(textCut.splitPlain('x'.repeat(10), 4), ['xxxx', 'xxxx', 'xx']);
  });
});
