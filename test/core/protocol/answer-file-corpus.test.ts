import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAnswerFile } from '../../../src/core/protocol/answers/parse-answer-file.js';
import { formatProtocolError } from '../../../src/core/protocol/protocol-error.js';
import { parseQuestionFile } from '../../../src/core/protocol/questions/parse-question-file.js';
import type { QuestionBatch } from '../../../src/core/protocol/questions/question.js';
import { type FixtureCase, readCases, readText } from './fixture-cases.js';

const CORPUS = 'test/fixtures/answer-files';

/** The case's own q-out file, which must itself be valid, as the batch to answer. */
function batchOf(c: FixtureCase): QuestionBatch | undefined {
  if (c.questionPath === undefined) return undefined;
  const parsed = parseQuestionFile(readText(c.questionPath), c.questionPath);
  if (!parsed.ok) assert.fail(formatProtocolError(parsed.error));
  return parsed.value;
}

describe('answer file corpus', () => {
  for (const c of readCases(CORPUS, 'invalid')) {
    it(`refuses ${c.name}`, () => {
      const path = c.answerPath as string;
      const parsed = parseAnswerFile(readText(path), path, batchOf(c));
      assert.equal(parsed.ok, false, `${path} was accepted`);
      if (parsed.ok) return;
      assert.equal(`${formatProtocolError(parsed.error)}\n`, c.expected);
    });
  }

  for (const c of readCases(CORPUS, 'valid')) {
    it(`accepts ${c.name}`, () => {
      const path = c.answerPath as string;
      const text = readText(path);
      const parsed = parseAnswerFile(text, path, batchOf(c));
      if (!parsed.ok) assert.fail(formatProtocolError(parsed.error));
      assert.deepEqual(parsed.value, JSON.parse(text));
    });
  }
});
