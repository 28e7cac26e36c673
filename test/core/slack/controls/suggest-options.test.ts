import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Question } from '../../../../src/core/protocol/questions/question.js';
import { suggestOptions } from '../../../../src/core/slack/controls/suggest-options.js';

const question = (options: string[]): Question => ({
  id: 'q',
  type: 'choose-one',
  prompt: 'Pick',
  options,
});

describe('suggestOptions', () => {
  it('matches text case-insensitively and values options by index', () => {
    const found = suggestOptions(question(['Alpha', 'beta', 'ALPHABET', 'gamma']), 'alp');
    assert.deepEqual(found, [
      { text: 'Alpha', value: '0' },
      { text: 'ALPHABET', value: '2' },
    ]);
  });

  it('returns at most 100, the first ones for an empty query', () => {
    const options = Array.from({ length: 250 }, (_, i) => `Option ${i}`);
    const all = suggestOptions(question(options), '');
    assert.equal(all.length, 100);
    assert.equal(all[99]?.value, '99');
    assert.equal(suggestOptions(question(options), 'option 24').length, 11); // 24, 240-249
  });

  it('searches the full text but shows labels cut to 75', () => {
    const long = `${'x'.repeat(100)} needle`;
    const [found] = suggestOptions(question(['a', long]), 'NEEDLE');
    assert.equal(found?.value, '1');
    assert.equal(found?.text.length, 75);
  });
});
