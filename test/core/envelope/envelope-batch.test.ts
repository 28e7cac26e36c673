import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  envelopeExtras,
  followUpTextFor,
  isEnvelopeBatch,
  picksWantingText,
  questionsMissingText,
} from '../../../src/core/envelope/envelope-batch.js';
import { OTHER_OPTION } from '../../../src/core/envelope/other-option.js';
import { idRecord } from '../../../src/core/protocol/questions/id-record.js';
import type { Question } from '../../../src/core/protocol/questions/question.js';
import {
  channelsQuestion,
  questionsOf,
  rateLimitQuestion,
  reposQuestion,
} from './envelope-samples.js';

const [rate, repos, channels] = questionsOf([
  rateLimitQuestion,
  reposQuestion,
  channelsQuestion,
]) as [Question, Question, Question];

describe('envelope batches', () => {
  it('are told apart by their top-level source, where the relay wrote them', () => {
    const source = { seq: 1, source: 'agent-open-questions', questions: [] };
    const batch = { seq: 1, questions: [], source };
    assert.equal(isEnvelopeBatch({ ...batch, writtenByRelay: true }), true);
    assert.equal(isEnvelopeBatch({ ...batch, source: { seq: 1 }, writtenByRelay: true }), false);
    // anyone can write the field; outside the relay's ask folders it claims nothing
    assert.equal(isEnvelopeBatch(batch), false);
  });

  it('read header, descriptions and the options that ask for text', () => {
    assert.deepEqual(envelopeExtras(repos), {
      header: 'Repos',
      descriptions: [
        'The work happens entirely in the current repo.',
        reposQuestion.options[1]?.description,
        'None of these: type your own answer.',
      ],
      textOptions: ['Multi-repo', OTHER_OPTION],
    });
    assert.deepEqual(envelopeExtras(rate).textOptions, [OTHER_OPTION]);
  });

  it('treat extra fields of the wrong shape as absent', () => {
    const odd: Question = {
      id: 'q1',
      type: 'choose-one',
      prompt: 'Which?',
      options: ['A', 'B', OTHER_OPTION],
      header: 42,
      optionDescriptions: ['about A', 7],
      followUps: [1, 9, 'x', -1],
      allowOther: 'yes',
    };
    assert.deepEqual(envelopeExtras(odd), {
      header: '',
      descriptions: ['about A', '', ''],
      textOptions: ['B'],
    });
  });

  it('know which picks ask for text, for one answer or several', () => {
    assert.deepEqual(picksWantingText(repos, 'Multi-repo'), ['Multi-repo']);
    assert.deepEqual(picksWantingText(repos, 'Single repo (Recommended if unsure)'), []);
    assert.deepEqual(picksWantingText(channels, [OTHER_OPTION, 'Email']), [OTHER_OPTION]);
    assert.deepEqual(picksWantingText(channels, undefined), []);
  });

  it('name the questions still missing their text, and write only text that goes with the picks', () => {
    const questions = [rate, repos, channels];
    const drafts = { q1: OTHER_OPTION, q2: 'Multi-repo', q3: ['Email'] };
    assert.deepEqual(questionsMissingText(questions, drafts, { q1: '  ' }), ['q1', 'q2']);
    assert.deepEqual(questionsMissingText(questions, drafts, { q1: 'mine', q2: 'web' }), []);
    // q3's text was typed for Other… before the pick changed to Email: it is left out
    assert.deepEqual(
      followUpTextFor(questions, drafts, { q1: 'mine', q2: 'web: /abs', q3: 'stale' }),
      idRecord([
        ['q1', 'mine'],
        ['q2', 'web: /abs'],
      ]),
    );
  });
});
