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
const reposThenRateLimit = envelopeOf([reposQuestion, rateLimitQuestion]);

type Envelope = ReturnType<typeof envelopeOf>;

/** One envelope, what was picked and typed, and the lines the agent is sent back. */
const cases: {
  name: string;
  envelope: Envelope;
  picks: Parameters<typeof formatResumeMessage>[1];
  texts: Parameters<typeof formatResumeMessage>[2];
  lines: string[];
}[] = [
  {
    name: 'gives one line per question: header, then the labels verbatim',
    envelope: threeQuestions,
    picks: {
      q1: 'Token bucket per IP (Recommended)',
      q2: 'Single repo (Recommended if unsure)',
      q3: ['Slack'],
    },
    texts: {},
    lines: [
      'Rate limit: Token bucket per IP (Recommended)',
      'Repos: Single repo (Recommended if unsure)',
      'Alerts: Slack',
    ],
  },
  {
    name: 'joins multiSelect labels with ", " in option order, whatever order they came in',
    envelope: envelopeOf([channelsQuestion]),
    picks: { q1: ['Pager', 'Email', 'Slack'] },
    texts: {},
    lines: ['Alerts: Email, Slack, Pager'],
  },
  {
    name: 'puts the text typed for Other… after "Other:"',
    envelope: threeQuestions,
    picks: {
      q1: OTHER_OPTION,
      q2: 'Single repo (Recommended if unsure)',
      q3: ['Pager', OTHER_OPTION],
    },
    texts: { q1: '  Leaky bucket at the load balancer ', q3: 'SMS to the on-call phone' },
    lines: [
      'Rate limit: Other: Leaky bucket at the load balancer',
      'Repos: Single repo (Recommended if unsure)',
      'Alerts: Pager, Other: SMS to the on-call phone',
    ],
  },
  {
    name: 'adds the follow-up text on the next line, indented',
    envelope: reposThenRateLimit,
    picks: { q1: 'Multi-repo', q2: 'Sliding window per IP' },
    texts: { q1: 'web: /abs/path/web' },
    lines: [
      'Repos: Multi-repo',
      '  Follow-up: web: /abs/path/web',
      'Rate limit: Sliding window per IP',
    ],
  },
  {
    name: 'keeps the lines of a follow-up or Other… text apart, each indented',
    envelope: reposThenRateLimit,
    picks: { q1: 'Multi-repo', q2: OTHER_OPTION },
    texts: { q1: '\nweb: /abs/path/web\napi: /abs/path/api\n', q2: 'Per user\nand per IP' },
    lines: [
      'Repos: Multi-repo',
      '  Follow-up:',
      '    web: /abs/path/web',
      '    api: /abs/path/api',
      'Rate limit: Other:',
      '  Per user',
      '  and per IP',
    ],
  },
  {
    name: 'says when a promised follow-up or Other… got no text',
    envelope: reposThenRateLimit,
    picks: { q1: 'Multi-repo', q2: OTHER_OPTION },
    texts: { q1: '  ' },
    lines: [
      'Repos: Multi-repo',
      '  Follow-up: (no text given)',
      'Rate limit: Other: (no text given)',
    ],
  },
  {
    name: 'keeps text typed for a question whose pick promised no follow-up',
    envelope: envelopeOf([rateLimitQuestion]),
    picks: { q1: 'Sliding window per IP' },
    texts: { q1: 'Redis is fine.' },
    lines: ['Rate limit: Sliding window per IP', '  Follow-up: Redis is fine.'],
  },
  {
    name: 'lists the questions over the limit on a last line',
    envelope: envelopeOf([1, 2, 3, 4, 5, 6].map(numberedQuestion)),
    picks: { q1: 'Yes 1', q2: 'Yes 2', q3: 'Yes 3', q4: 'Yes 4' },
    texts: {},
    lines: [
      'Q1: Yes 1',
      'Q2: Yes 2',
      'Q3: Yes 3',
      'Q4: Yes 4',
      'Not asked (over the 4-question limit): Question number 5?; Question number 6?',
    ],
  },
  {
    name: 'marks a question the answers lack',
    envelope: envelopeOf([rateLimitQuestion]),
    picks: {},
    texts: {},
    lines: ['Rate limit: (no answer)'],
  },
];

describe('formatResumeMessage', () => {
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(formatResumeMessage(c.envelope, c.picks, c.texts), c.lines.join('\n'));
    });
  }
});
