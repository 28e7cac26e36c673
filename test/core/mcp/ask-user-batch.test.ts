import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isEnvelopeBatch } from '../../../src/core/envelope/envelope-batch.js';
import {
  askUserEnvelopeSchema,
  envelopeSchema,
} from '../../../src/core/envelope/envelope-schema.js';
import { formatResumeMessage } from '../../../src/core/envelope/resume-message.js';
import { askUserBatch } from '../../../src/core/mcp/ask-user-batch.js';
import { userAnswers } from '../../../src/core/mcp/user-answers.js';
import { parseQuestionFile } from '../../../src/core/protocol/questions/parse-question-file.js';
import { problemsFromZod } from '../../../src/core/protocol/schema-messages.js';
import { rateLimitQuestion } from '../envelope/envelope-samples.js';

const WHY = { question: 'Why does it need a maintenance window?', header: 'Reason' };

/** `ask_user`'s questions, checked as the tool checks them. */
function checked(questions: unknown[]) {
  const parsed = askUserEnvelopeSchema.safeParse({ openQuestions: questions });
  assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
  return parsed.data;
}

describe("ask_user's questions without options", () => {
  it('are let through with no options, while the rest are checked as an envelope is', () => {
    const envelope = checked([rateLimitQuestion, WHY]);
    assert.deepEqual(envelope.openQuestions[1]?.options, []);
    const refused = askUserEnvelopeSchema.safeParse({
      openQuestions: [
        { ...WHY, header: '  ' },
        { ...WHY, options: [] },
      ],
    });
    assert.ok(!refused.success);
    assert.deepEqual(
      problemsFromZod(refused.error).map((p) => p.path),
      ['openQuestions[0].header', 'openQuestions[1].options'],
      'a blank header, and options given but empty',
    );
  });

  it("are still refused in an agent's envelope, whose contract always has options", () => {
    const parsed = envelopeSchema.safeParse({ openQuestions: [WHY] });
    assert.ok(!parsed.success);
    assert.deepEqual(
      problemsFromZod(parsed.error).map((p) => p.path),
      ['openQuestions[0].options'],
    );
  });

  it('become free-write questions under their header, in order, in a batch the relay reads as an envelope batch', () => {
    const batch = askUserBatch(checked([WHY, rateLimitQuestion]));
    assert.deepEqual(batch.questions[0], {
      id: 'q1',
      type: 'free-write',
      prompt: WHY.question,
      header: WHY.header,
    });
    assert.equal(batch.questions[1]?.id, 'q2');
    assert.equal(batch.questions[1]?.type, 'choose-one');
    const read = parseQuestionFile(JSON.stringify(batch), '/state/asks/a/qa/q-out-001.json');
    assert.ok(read.ok, JSON.stringify(read));
    assert.ok(isEnvelopeBatch({ ...read.value, writtenByRelay: true }));
  });

  it('come back as the words written: a line under the header in the resume text, the text itself by question', () => {
    const envelope = checked([WHY, rateLimitQuestion]);
    const answers = { q1: 'It rewrites the users table.', q2: 'Sliding window per IP' };
    assert.equal(
      formatResumeMessage(envelope, answers, {}),
      'Reason: It rewrites the users table.\nRate limit: Sliding window per IP',
    );
    assert.equal(
      formatResumeMessage(envelope, { ...answers, q1: 'Two steps:\n- copy\n- swap' }, {}),
      'Reason:\n  Two steps:\n  - copy\n  - swap\nRate limit: Sliding window per IP',
    );
    assert.deepEqual(
      { ...userAnswers(envelope, answers, {}).answers },
      {
        [WHY.question]: 'It rewrites the users table.',
        [rateLimitQuestion.question]: 'Sliding window per IP',
      },
    );
  });
});
