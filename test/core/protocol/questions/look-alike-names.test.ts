import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  lookAlikeFix,
  looksLikeQaFileName,
} from '../../../../src/core/protocol/questions/look-alike-names.js';

describe('lookAlikeFix', () => {
  it('says what each look-alike should be called', () => {
    const cases: [string, string][] = [
      ['q-out-0001.json', 'if it is batch 1, rename it to q-out-001.json'],
      ['q-out-01.json', 'if it is batch 1, rename it to q-out-001.json'],
      ['q-out-7.json', 'if it is batch 7, rename it to q-out-007.json'],
      ['Q-OUT-002.json', 'if it is batch 2, rename it to q-out-002.json'],
      ['q-out-003.JSON', 'if it is batch 3, rename it to q-out-003.json'],
      ['q_out_004.json', 'if it is batch 4, rename it to q-out-004.json'],
      ['qout005.json', 'if it is batch 5, rename it to q-out-005.json'],
      ['q-answer-006.json', 'if it is batch 6, rename it to q-answers-006.json'],
      ['q-answers-01000.json', 'if it is batch 1000, rename it to q-answers-1000.json'],
      ['q-out-000.json', 'batch numbers start at 001'],
      [
        'q-out-9007199254740993.json',
        'its number is past 9,007,199,254,740,991, the largest batch number that can be counted exactly',
      ],
    ];
    for (const [name, fix] of cases) {
      assert.equal(lookAlikeFix(name), fix, name);
      assert.equal(looksLikeQaFileName(name), true, name);
    }
  });

  it('leaves protocol names and names that look nothing like them alone', () => {
    for (const name of [
      'q-out-001.json',
      'q-answers-1000.json',
      'cancelled.json',
      'notes.txt',
      '.q-out-001.json.tmp',
      '.q-answers-001.json.123.abcdef012345.tmp',
      'q-out-001.json.bak',
      'q-out-draft.json',
    ]) {
      assert.equal(lookAlikeFix(name), undefined, name);
    }
    assert.equal(looksLikeQaFileName('q-out-001.json'), true);
    assert.equal(looksLikeQaFileName('notes.txt'), false);
  });
});
