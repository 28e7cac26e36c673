import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OTHER_OPTION } from '../../../src/core/envelope/other-option.js';
import { userAnswers } from '../../../src/core/mcp/user-answers.js';
import {
  channelsQuestion,
  envelopeOf,
  rateLimitQuestion,
  reposQuestion,
} from '../envelope/envelope-samples.js';

describe('userAnswers', () => {
  it("keys each answer by its question: a label, a multi-select's labels in option order, typed text for Other…", () => {
    const envelope = envelopeOf([rateLimitQuestion, channelsQuestion, reposQuestion]);
    const result = userAnswers(
      envelope,
      { q1: OTHER_OPTION, q2: ['Pager', 'Email'], q3: 'Multi-repo' },
      { q1: 'Leaky bucket', q3: '/src/a\n/src/b' },
    );
    assert.deepEqual(
      { ...result.answers },
      {
        [rateLimitQuestion.question]: 'Leaky bucket',
        [channelsQuestion.question]: ['Email', 'Pager'],
        [reposQuestion.question]: 'Multi-repo',
      },
    );
    assert.deepEqual({ ...result.followUps }, { [reposQuestion.question]: '/src/a\n/src/b' });
  });

  it('puts typed text after the labels of a multi-select that picked Other…, and leaves out unanswered questions', () => {
    const envelope = envelopeOf([channelsQuestion, rateLimitQuestion]);
    const result = userAnswers(envelope, { q1: ['Email', OTHER_OPTION] }, { q1: 'Carrier pigeon' });
    assert.deepEqual(
      { ...result.answers },
      { [channelsQuestion.question]: ['Email', 'Carrier pigeon'] },
    );
  });

  it('takes any question text as a key, even __proto__', () => {
    const envelope = envelopeOf([{ ...rateLimitQuestion, question: '__proto__' }]);
    const result = userAnswers(envelope, { q1: 'Sliding window per IP' }, {});
    assert.equal(Object.hasOwn(result.answers, '__proto__'), true);
  });
});
