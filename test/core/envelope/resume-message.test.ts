import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OTHER_OPTION } from '../../../src/core/envelope/other-option.js';
import { formatResumeMessage } from '../../../src/core/envelope/resume-message.js';
import {
  channelsQuestion,
  envelopeOf,
  numberedQuestion,
  rateLimitQuestion,
  reposQuestion,
} from './envelope-samples.js';

const threeQuestions = envelopeOf([rateLimitQuestion, reposQuestion, channelsQuestion]);

describe('formatResumeMessage', () => {
  it('gives one line per question: header, then the labels verbatim', () => {
    const message = formatResumeMessage(
      threeQuestions,
      {
        q1: 'Token bucket per IP (Recommended)',
        q2: 'Single repo (Recommended if unsure)',
        q3: ['Slack'],
      },
      {},
    );
    assert.equal(
      message,
      [
        'Rate limit: Token bucket per IP (Recommended)',
        'Repos: Single repo (Recommended if unsure)',
        'Alerts: Slack',
      ].join('\n'),
    );
  });

  it('joins multiSelect labels with ", " in option order, whatever order they came in', () => {
    const envelope = envelopeOf([channelsQuestion]);
    assert.equal(
      formatResumeMessage(envelope, { q1: ['Pager', 'Email', 'Slack'] }, {}),
      'Alerts: Email, Slack, Pager',
    );
  });

  it('puts the text typed for Other… after "Other:"', () => {
    const message = formatResumeMessage(
      threeQuestions,
      { q1: OTHER_OPTION, q2: 'Single repo (Recommended if unsure)', q3: ['Pager', OTHER_OPTION] },
      { q1: '  Leaky bucket at the load balancer ', q3: 'SMS to the on-call phone' },
    );
    assert.equal(
      message,
      [
        'Rate limit: Other: Leaky bucket at the load balancer',
        'Repos: Single repo (Recommended if unsure)',
        'Alerts: Pager, Other: SMS to the on-call phone',
      ].join('\n'),
    );
  });

  it('adds the follow-up text on the next line, indented, several lines kept apart', () => {
    const envelope = envelopeOf([reposQuestion, rateLimitQuestion]);
    const oneLine = formatResumeMessage(
      envelope,
      { q1: 'Multi-repo', q2: 'Sliding window per IP' },
      { q1: 'web: /abs/path/web' },
    );
    assert.equal(
      oneLine,
      [
        'Repos: Multi-repo',
        '  Follow-up: web: /abs/path/web',
        'Rate limit: Sliding window per IP',
      ].join('\n'),
    );
    const lines = formatResumeMessage(
      envelope,
      { q1: 'Multi-repo', q2: OTHER_OPTION },
      { q1: '\nweb: /abs/path/web\napi: /abs/path/api\n', q2: 'Per user\nand per IP' },
    );
    assert.equal(
      lines,
      [
        'Repos: Multi-repo',
        '  Follow-up:',
        '    web: /abs/path/web',
        '    api: /abs/path/api',
        'Rate limit: Other:',
        '  Per user',
        '  and per IP',
      ].join('\n'),
    );
  });

  it('says when a promised follow-up or Other… got no text', () => {
    const envelope = envelopeOf([reposQuestion, rateLimitQuestion]);
    assert.equal(
      formatResumeMessage(envelope, { q1: 'Multi-repo', q2: OTHER_OPTION }, { q1: '  ' }),
      [
        'Repos: Multi-repo',
        '  Follow-up: (no text given)',
        'Rate limit: Other: (no text given)',
      ].join('\n'),
    );
  });

  it('keeps text typed for a question whose pick promised no follow-up', () => {
    const envelope = envelopeOf([rateLimitQuestion]);
    assert.equal(
      formatResumeMessage(envelope, { q1: 'Sliding window per IP' }, { q1: 'Redis is fine.' }),
      ['Rate limit: Sliding window per IP', '  Follow-up: Redis is fine.'].join('\n'),
    );
  });

  it('lists the questions over the limit on a last line', () => {
    const envelope = envelopeOf([1, 2, 3, 4, 5, 6].map(numberedQuestion));
    const answers = { q1: 'Yes 1', q2: 'Yes 2', q3: 'Yes 3', q4: 'Yes 4' };
    assert.equal(
      formatResumeMessage(envelope, answers, {}),
      [
        'Q1: Yes 1',
        'Q2: Yes 2',
        'Q3: Yes 3',
        'Q4: Yes 4',
        'Not asked (over the 4-question limit): Question number 5?; Question number 6?',
      ].join('\n'),
    );
  });

  it('marks a question the answers lack', () => {
    assert.equal(
      formatResumeMessage(envelopeOf([rateLimitQuestion]), {}, {}),
      'Rate limit: (no answer)',
    );
  });
});
