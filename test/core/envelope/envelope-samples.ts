// Envelopes and agent messages shared by the envelope tests.
import assert from 'node:assert/strict';
import type { Envelope } from '../../../src/core/envelope/envelope.js';
import { envelopeToBatch } from '../../../src/core/envelope/envelope-to-batch.js';
import { findEnvelope } from '../../../src/core/envelope/find-envelope.js';
import { parseQuestionFile } from '../../../src/core/protocol/questions/parse-question-file.js';
import type { Question } from '../../../src/core/protocol/questions/question.js';

/** The contract's rate-limit example. */
export const rateLimitQuestion = {
  question: 'How should rate limiting be enforced for unauthenticated requests?',
  header: 'Rate limit',
  options: [
    {
      label: 'Token bucket per IP (Recommended)',
      description: "Simple, no shared state. Trade-off: NAT'd users share a bucket.",
    },
    {
      label: 'Sliding window per IP',
      description: 'More accurate burst handling. Trade-off: needs Redis.',
    },
    {
      label: 'No limit on unauthenticated path',
      description: 'Smallest change. Trade-off: leaves DoS surface open.',
    },
  ],
};

/** The questioner's multi-repo question: the contract's canonical free-text escape hatch. */
export const reposQuestion = {
  question: 'Does this topic span more than one repository?',
  header: 'Repos',
  options: [
    {
      label: 'Single repo (Recommended if unsure)',
      description: 'The work happens entirely in the current repo.',
    },
    {
      label: 'Multi-repo',
      description:
        "The work spans the current repo and one or more others. If you pick this, the orchestrator will follow up with a plain-text question asking for each additional repo's slug and absolute path.",
    },
  ],
};

/** A multi-select question with a description-less option. */
export const channelsQuestion = {
  question: 'Which channels should alerts go to?',
  header: 'Alerts',
  multiSelect: true,
  options: [
    { label: 'Email', description: 'Daily digest.' },
    { label: 'Slack', description: 'Immediate.' },
    { label: 'Pager' },
  ],
};

/** A simple question numbered `n`, for envelopes of many questions. */
export const numberedQuestion = (n: number) => ({
  question: `Question number ${n}?`,
  header: `Q${n}`,
  options: [{ label: `Yes ${n}`, description: '' }],
});

/** A ```json block holding `value` as pretty JSON. */
export const jsonBlock = (value: unknown): string =>
  `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;

/** An agent's final message: some prose, then the blocks. */
export const agentMessage = (...blocks: string[]): string =>
  ['I read the code and need a decision before writing the design.', ...blocks].join('\n\n');

/** The sentences every correction message ends with. */
export const CORRECTION_TAIL = [
  'Expected shape: {"openQuestions": [{"question": "…", "header": "…", "options": [{"label": "…", "description": "…"}], "multiSelect": false}]} with 1 to 4 questions (any past the fourth are not asked, only named in the reply) and at least 1 option each; "description" and "multiSelect" may be left out.',
  'Send the whole corrected envelope again as one ```json block at the end of your final message, then stop.',
].join('\n');

/** The envelope an agent message with these open questions holds (fails if it holds none). */
export function envelopeOf(openQuestions: unknown[]): Envelope {
  const scan = findEnvelope(jsonBlock({ openQuestions }));
  assert.ok(scan.kind === 'envelope', JSON.stringify(scan));
  return scan.envelope;
}

/** The questions these open questions become, as the relay reads them back from its question file. */
export function questionsOf(openQuestions: unknown[]): Question[] {
  const text = JSON.stringify(envelopeToBatch(envelopeOf(openQuestions)));
  const parsed = parseQuestionFile(text, '/state/asks/a/qa/q-out-001.json');
  assert.ok(parsed.ok);
  return parsed.value.questions;
}
