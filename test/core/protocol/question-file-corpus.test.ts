import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  buildAnswerFile,
  serializeAnswerFile,
} from '../../../src/core/protocol/answers/build-answer-file.js';
import { parseAnswerFile } from '../../../src/core/protocol/answers/parse-answer-file.js';
import { formatProtocolError } from '../../../src/core/protocol/protocol-error.js';
import { parseQuestionFile } from '../../../src/core/protocol/questions/parse-question-file.js';
import type { Answer, Question } from '../../../src/core/protocol/questions/question.js';
import { answerFileName, parseQaFileName } from '../../../src/core/protocol/run-folder.js';
import { readCases, readText } from './fixture-cases.js';

const CORPUS = 'test/fixtures/question-files';
const invalid = readCases(CORPUS, 'invalid');
const valid = readCases(CORPUS, 'valid');

/** A fitting answer for any question, so every valid batch can be answered. */
function someAnswer(question: Question): Answer {
  const options = question.options ?? [];
  if (question.type === 'choose-one') return options.at(-1) as string;
  if (question.type === 'choose-many') return [...options].reverse();
  if (question.type === 'yes-no') return true;
  return `answer to ${question.id}`;
}

describe('question file corpus: invalid files', () => {
  it('holds at least 30 cases, each with a q-out file and expected.txt', () => {
    assert.ok(invalid.length >= 30, `only ${invalid.length} invalid cases`);
    for (const c of invalid) {
      assert.ok(c.questionPath, `${c.name} has no q-out-NNN.json`);
      assert.ok(c.expected, `${c.name} has no expected.txt`);
    }
  });

  for (const c of invalid) {
    it(c.name, () => {
      const path = c.questionPath as string;
      const parsed = parseQuestionFile(readText(path), path);
      assert.equal(parsed.ok, false, `${path} was accepted`);
      if (parsed.ok) return;
      assert.equal(`${formatProtocolError(parsed.error)}\n`, c.expected);
    });
  }
});

describe('question file corpus: valid files', () => {
  it('holds at least 10 cases', () => {
    assert.ok(valid.length >= 10, `only ${valid.length} valid cases`);
  });

  for (const c of valid) {
    it(c.name, () => {
      const path = c.questionPath as string;
      const text = readText(path);
      const parsed = parseQuestionFile(text, path);
      if (!parsed.ok) assert.fail(formatProtocolError(parsed.error));
      const batch = parsed.value;
      const source = JSON.parse(text.replace(/^\uFEFF/, ''));
      const fileSeq = parseQaFileName(path.split('/').at(-1) as string)?.seq;

      assert.equal(batch.seq, fileSeq);
      assert.deepEqual(batch.source, source);
      // every question keeps every field it was written with, unknown ones included
      assert.deepEqual(batch.questions, source.questions);

      const answers = Object.fromEntries(batch.questions.map((q) => [q.id, someAnswer(q)]));
      const built = buildAnswerFile(batch, answers);
      if (!built.ok) assert.fail(built.error.map((p) => p.message).join('\n'));
      assert.deepEqual(built.value.questions, source.questions);

      const answerPath = path.replace(/q-out-\d+\.json$/, answerFileName(batch.seq));
      const reread = parseAnswerFile(serializeAnswerFile(built.value), answerPath, batch);
      if (!reread.ok) assert.fail(formatProtocolError(reread.error));
      assert.deepEqual(reread.value, built.value);
    });
  }

  it('includes the cases the protocol calls out', () => {
    const names = valid.map((c) => c.name);
    for (const wanted of ['unknown-extra-fields', 'preview-markdown', 'preview-ascii', 'seq-010']) {
      assert.ok(names.includes(wanted), `missing valid case ${wanted}`);
    }
    const paths = valid.map((c) => c.questionPath);
    assert.ok(paths.some((p) => p?.endsWith('/q-out-010.json')));
    assert.ok(paths.some((p) => p?.endsWith('/q-out-1000.json')));
  });
});
