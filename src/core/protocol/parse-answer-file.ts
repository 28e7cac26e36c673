import { err, ok, type Result } from '../result.js';
import { answerFileSchema } from './answer-file-schema.js';
import { answerMismatch } from './answer-rules.js';
import { describeValue, listChoices, quote } from './describe-value.js';
import { checkSeqMatchesName } from './file-seq.js';
import { sortProblems } from './problem-order.js';
import { type ProtocolError, type ProtocolProblem, protocolError } from './protocol-error.js';
import { parseProtocolJson } from './protocol-json.js';
import type { AnswerFile, QuestionBatch } from './question.js';
import { problemsFromZod } from './zod-problems.js';

// Only called once the file's own shape is sound, so `file` is trustworthy here.
function checkAgainstBatch(file: AnswerFile, batch: QuestionBatch): ProtocolProblem[] {
  const problems: ProtocolProblem[] = [];
  if (file.seq !== batch.seq) {
    problems.push({
      path: 'seq',
      message: `expected ${batch.seq}, the seq of the questions, found ${file.seq}`,
    });
  }
  const ids = batch.questions.map((question) => question.id);
  if (file.answers.length !== ids.length) {
    const expected = `${ids.length} answers, one per question in order (${listChoices(ids)})`;
    problems.push({
      path: 'answers',
      message: `expected ${expected}, found ${file.answers.length}`,
    });
  }
  file.answers.forEach((entry, index) => {
    const question = batch.questions[index];
    if (question === undefined) return;
    const at = `answers[${index}]`;
    if (entry.id !== question.id) {
      const message = `expected ${quote(question.id)}, the id of questions[${index}], found ${describeValue(entry.id)}`;
      problems.push({ path: `${at}.id`, message });
      return;
    }
    if (entry.type !== question.type) {
      const message = `expected ${quote(question.type)}, the type of question ${quote(question.id)}, found ${quote(entry.type)}`;
      problems.push({ path: `${at}.type`, message });
      return;
    }
    const mismatch = answerMismatch(question.type, question.options, entry.answer);
    if (mismatch !== undefined) problems.push({ path: `${at}.answer`, message: mismatch });
  });
  return problems;
}

/**
 * Reads the text of a `q-answers-NNN.json` file, or lists every problem in it. Given the
 * batch it answers, the answers must also match it: same ids in order, answers among the
 * options. Problems with the file's own shape are reported before it is compared.
 */
export function parseAnswerFile(
  text: string,
  filePath: string,
  questions?: QuestionBatch,
): Result<AnswerFile, ProtocolError> {
  const json = parseProtocolJson(text);
  if (!json.ok) return err({ file: filePath, problems: json.error });
  const parsed = answerFileSchema.safeParse(json.value);
  const problems = sortProblems([
    ...checkSeqMatchesName(json.value, filePath, 'answer'),
    ...(parsed.success ? [] : problemsFromZod(parsed.error)),
  ]);
  if (!parsed.success || problems.length > 0) return err(protocolError(filePath, problems));
  const file: AnswerFile = parsed.data;
  const mismatches = questions === undefined ? [] : checkAgainstBatch(file, questions);
  return mismatches.length > 0 ? err(protocolError(filePath, mismatches)) : ok(file);
}
