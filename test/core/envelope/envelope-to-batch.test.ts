import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { envelopeToBatch, questionIdAt } from '../../../src/core/envelope/envelope-to-batch.js';
import { OTHER_OPTION } from '../../../src/core/envelope/other-option.js';
import { buildAnswerFile } from '../../../src/core/protocol/answers/build-answer-file.js';
import { parseQuestionFile } from '../../../src/core/protocol/questions/parse-question-file.js';
import { questionFileName } from '../../../src/core/protocol/run-folder.js';
import {
  channelsQuestion,
  envelopeOf,
  numberedQuestion,
  rateLimitQuestion,
  reposQuestion,
} from './envelope-samples.js';

const asQuestionFile = (batch: object, seq: number) =>
  parseQuestionFile(JSON.stringify(batch, null, 2), `/runs/r/qa/${questionFileName(seq)}`);

describe('envelopeToBatch', () => {
  it('turns the contract example into a choose-one question with Other… last', () => {
    assert.deepEqual(envelopeToBatch(envelopeOf([rateLimitQuestion])), {
      seq: 1,
      source: 'agent-open-questions',
      questions: [
        {
          id: 'q1',
          type: 'choose-one',
          prompt: 'How should rate limiting be enforced for unauthenticated requests?',
          options: [
            'Token bucket per IP (Recommended)',
            'Sliding window per IP',
            'No limit on unauthenticated path',
            'Other…',
          ],
          header: 'Rate limit',
          optionDescriptions: [
            "Simple, no shared state. Trade-off: NAT'd users share a bucket.",
            'More accurate burst handling. Trade-off: needs Redis.',
            'Smallest change. Trade-off: leaves DoS surface open.',
            'None of these: type your own answer.',
          ],
          allowOther: true,
          followUps: [],
        },
      ],
    });
  });

  it('makes multiSelect questions choose-many and fills missing descriptions with ""', () => {
    const [question] = envelopeToBatch(envelopeOf([channelsQuestion])).questions;
    assert.equal(question?.type, 'choose-many');
    assert.deepEqual(question?.optionDescriptions, [
      'Daily digest.',
      'Immediate.',
      '',
      'None of these: type your own answer.',
    ]);
  });

  it('marks options whose description promises a plain-text follow-up', () => {
    const [question] = envelopeToBatch(envelopeOf([reposQuestion])).questions;
    assert.deepEqual(question?.followUps, [1]);
    assert.equal(question?.options[1], 'Multi-repo');
  });

  it('asks only the first four questions, numbered q1 to q4', () => {
    const batch = envelopeToBatch(envelopeOf([1, 2, 3, 4, 5].map(numberedQuestion)), 12);
    assert.equal(batch.seq, 12);
    assert.deepEqual(
      batch.questions.map((question) => [question.id, question.prompt]),
      [1, 2, 3, 4].map((n) => [questionIdAt(n - 1), `Question number ${n}?`]),
    );
  });

  it('makes a batch the Q&A protocol accepts, extra fields echoed as read', () => {
    const batch = envelopeToBatch(
      envelopeOf([rateLimitQuestion, reposQuestion, channelsQuestion, numberedQuestion(4)]),
      7,
    );
    const parsed = asQuestionFile(batch, 7);
    assert.ok(parsed.ok, JSON.stringify(parsed));
    assert.deepEqual(parsed.value.source, JSON.parse(JSON.stringify(batch)));
    assert.deepEqual(parsed.value.questions, batch.questions);
  });

  it('lets Other… be answered like any option, alone or among several picks', () => {
    const batch = envelopeToBatch(envelopeOf([rateLimitQuestion, channelsQuestion]));
    const parsed = asQuestionFile(batch, 1);
    assert.ok(parsed.ok);
    const built = buildAnswerFile(parsed.value, { q1: OTHER_OPTION, q2: [OTHER_OPTION, 'Slack'] });
    assert.ok(built.ok, JSON.stringify(built));
    assert.deepEqual(
      built.value.answers.map((entry) => entry.answer),
      [OTHER_OPTION, ['Slack', OTHER_OPTION]],
    );
  });
});
