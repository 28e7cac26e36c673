import { err, ok, type Result } from '../../result.js';
import { checkSeqMatchesName } from '../file-seq.js';
import { describeValue, listChoices, quote } from '../json/describe-value.js';
import { parseProtocolJson } from '../json/protocol-json.js';
import { sortProblems } from '../problem-order.js';
import { type ProtocolError, type ProtocolProblem, protocolError } from '../protocol-error.js';
import type { AnswerEntry, AnswerFile, Question, QuestionBatch } from '../questions/question.js';
import { questionFileName } from '../run-folder.js';
import { isRecord, problemsFromZod } from '../schema-messages.js';
import { answerFileSchema } from './answer-file-schema.js';
import { answerMismatch } from './answer-rules.js';
import { echoDifferences, whereStringsPart } from './echo-differences.js';

/**
 * How closely an answer file must match the batch it answers. `exact` is the protocol:
 * `questions` echoed verbatim, and each answer's `prompt` and `options` its question's.
 * `answers` asks only what reading the answers needs (ids in order, types, answers among
 * the options): the relay uses it to show another provider's answers in Slack, which an
 * echo that differs does not make unreadable.
 */
export type AnswerMatch = 'exact' | 'answers';

/** The echoed `prompt` and `options` of an answer, against its question's. */
function echoedFieldProblems(entry: AnswerEntry, question: Question, at: string) {
  const problems: ProtocolProblem[] = [];
  const of = (field: string) => `the ${field} of question ${quote(question.id)}`;
  if (entry.prompt !== question.prompt) {
    const message = `expected ${quote(question.prompt)}, ${of('prompt')}, found ${quote(entry.prompt)}${whereStringsPart(question.prompt, entry.prompt)}`;
    problems.push({ path: `${at}.prompt`, message });
  }
  const expected = question.options;
  const found = entry.options;
  if (expected === undefined && found !== undefined) {
    const message = `expected no "options" (question ${quote(question.id)} has none), found ${describeValue(found)}`;
    problems.push({ path: `${at}.options`, message });
  } else if (expected !== undefined && found === undefined) {
    const message = `"options" is missing; expected ${describeValue(expected)}, ${of('options')}`;
    problems.push({ path: `${at}.options`, message });
  } else if (
    expected !== undefined &&
    found !== undefined &&
    (expected.length !== found.length || expected.some((option, i) => option !== found[i]))
  ) {
    const message = `expected ${describeValue(expected)}, ${of('options')}, found ${describeValue(found)}`;
    problems.push({ path: `${at}.options`, message });
  }
  return problems;
}

// Only called once the file's own shape is sound, so `file` is trustworthy here.
function checkAgainstBatch(
  file: AnswerFile,
  batch: QuestionBatch,
  match: AnswerMatch,
): ProtocolProblem[] {
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
    if (match === 'exact') problems.push(...echoedFieldProblems(entry, question, at));
    const mismatch = answerMismatch(question.type, question.options, entry.answer);
    if (mismatch !== undefined) problems.push({ path: `${at}.answer`, message: mismatch });
  });
  if (match === 'exact') problems.push(...questionsEchoProblems(file.questions, batch));
  return problems;
}

/**
 * `questions` must be the q-out file's own, verbatim (unknown fields included). A question
 * echoed in another place is named by its id alone: its fields would all differ.
 */
function questionsEchoProblems(echoed: unknown[], batch: QuestionBatch): ProtocolProblem[] {
  const original = Array.isArray(batch.source.questions) ? batch.source.questions : [];
  const source = questionFileName(batch.seq);
  if (echoed.length !== original.length) {
    const ids = listChoices(batch.questions.map((question) => question.id));
    const message = `expected ${original.length} questions, those of ${source} echoed verbatim (${ids}), found ${echoed.length}`;
    return [{ path: 'questions', message }];
  }
  return original.flatMap((question: unknown, index) => {
    const copy = echoed[index];
    const id = isRecord(question) ? question.id : undefined;
    if (isRecord(copy) && copy.id !== id) {
      const message = `expected ${describeValue(id)}, the id of questions[${index}] in ${source}, found ${describeValue(copy.id)}`;
      return [{ path: `questions[${index}].id`, message }];
    }
    return echoDifferences(question, copy, ['questions', index], source);
  });
}

/**
 * Reads the text of a `q-answers-NNN.json` file, or lists every problem in it. Given the
 * batch it answers, the file must also match it (see `AnswerMatch`; `exact` unless told).
 * Problems with the file's own shape are reported before it is compared.
 */
export function parseAnswerFile(
  text: string,
  filePath: string,
  questions?: QuestionBatch,
  match: AnswerMatch = 'exact',
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
  const mismatches = questions === undefined ? [] : checkAgainstBatch(file, questions, match);
  return mismatches.length > 0 ? err(protocolError(filePath, sortProblems(mismatches))) : ok(file);
}
