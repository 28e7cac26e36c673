import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Question } from '../../../../src/core/protocol/questions/question.js';
import { describeMissing } from '../../../../src/core/slack/messages/missing-answers.js';

const questions: Question[] = [
  {
    id: 'one',
    type: 'choose-one',
    prompt: 'Which output format should the workflow produce in the end?',
    options: ['A', 'B'],
  },
  { id: 'many', type: 'choose-many', prompt: 'Tags?', options: ['x', 'y'] },
  { id: 'yn', type: 'yes-no', prompt: 'Proceed?' },
  { id: 'fw', type: 'free-write', prompt: 'Describe <it>' },
];

describe('describeMissing', () => {
  it('names one question with its prompt', () => {
    assert.equal(
      describeMissing(questions, ['yn']),
      'Question 3 ("Proceed?") still needs an answer.',
    );
  });

  it('names several, cutting long prompts, in plain text', () => {
    assert.equal(
      describeMissing(questions, ['one', 'fw']),
      'Questions 1 ("Which output format should the workflow produce in the end?") and 4 ("Describe <it>") still need answers.',
    );
  });

  it('counts the rest beyond five', () => {
    const many: Question[] = Array.from({ length: 8 }, (_, i) => ({
      id: `q${i}`,
      type: 'yes-no',
      prompt: `P${i}`,
    }));
    assert.equal(
      describeMissing(
        many,
        many.map((q) => q.id),
      ),
      'Questions 1 ("P0"), 2 ("P1"), 3 ("P2"), 4 ("P3"), 5 ("P4") and 3 more still need answers.',
    );
  });
});
