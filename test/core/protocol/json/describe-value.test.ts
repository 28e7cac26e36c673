import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  describeValue,
  listChoices,
  quote,
  shorten,
} from '../../../../src/core/protocol/json/describe-value.js';

describe('describeValue', () => {
  it('quotes strings and spells scalars as JSON does', () => {
    assert.equal(describeValue('1'), '"1"');
    assert.equal(describeValue(''), '""');
    assert.equal(describeValue('say "hi"'), '"say \\"hi\\""');
    assert.equal(describeValue(1.5), '1.5');
    assert.equal(describeValue(false), 'false');
    assert.equal(describeValue(null), 'null');
    assert.equal(describeValue(undefined), 'nothing');
  });

  it('names arrays and objects and shows their start', () => {
    assert.equal(describeValue([]), 'an empty array');
    assert.equal(describeValue({}), 'an empty object');
    assert.equal(describeValue(['a', 1]), 'an array ["a",1]');
    assert.equal(describeValue({ a: 1 }), 'an object {"a":1}');
  });

  it('cuts long values to about 60 characters', () => {
    const long = 'x'.repeat(100);
    assert.equal(describeValue(long), `"${'x'.repeat(57)}…"`);
    assert.equal(describeValue(long).length, 60);
    assert.equal(describeValue([long]), `an array ["${'x'.repeat(57)}…`);
  });
});

describe('shorten and quote', () => {
  it('never splits an emoji in two', () => {
    assert.equal(shorten('😀😀😀', 2), '😀…');
    assert.equal(shorten('😀😀', 2), '😀😀');
    assert.equal(quote('😀'.repeat(80)), `"${'😀'.repeat(57)}…"`);
  });
});

describe('listChoices', () => {
  it('lists up to five choices and counts the rest', () => {
    assert.equal(listChoices(['a', 'b']), '"a", "b"');
    assert.equal(
      listChoices(['1', '2', '3', '4', '5', '6', '7']),
      '"1", "2", "3", "4", "5" (and 2 more)',
    );
  });
});

describe('quote', () => {
  it('writes invisible and direction-changing characters as escapes', () => {
    assert.equal(quote('ship\u200b'), '"ship\\u200b"');
    assert.equal(quote('\u202eevil'), '"\\u202eevil"');
    assert.equal(quote('a\u2028b'), '"a\\u2028b"');
  });
});
