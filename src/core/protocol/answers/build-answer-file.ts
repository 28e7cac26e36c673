import { err, ok, type Result } from '../../result.js';
import { listChoices, quote } from '../json/describe-value.js';
import type {
  Answer,
  AnswerEntry,
  AnswerFile,
  Question,
  QuestionBatch,
} from '../questions/question.js';
import { answerMismatch, expectedAnswer } from './answer-rules.js';

/** Why an answer file cannot be built yet; `message` stands alone (it names the question). */
export interface AnswerProblem {
  questionId: string;
  /** Index in the batch's `questions`; absent for an answer to an id the batch lacks. */
  questionIndex?: number;
  message: string;
}

function entryFor(question: Question, answer: Answer): AnswerEntry {
  // The protocol lists choose-many picks as the options list them; clicks come in any order.
  const ordered =
    question.type === 'choose-many' && Array.isArray(answer)
      ? (question.options ?? []).filter((option) => answer.includes(option))
      : answer;
  const { id, type, prompt } = question;
  return 'options' in question
    ? { id, type, prompt, options: [...(question.options ?? [])], answer: ordered }
    : { id, type, prompt, answer: ordered };
}

/**
 * Builds the `q-answers-NNN.json` content for a batch from answers keyed by question id, or
 * lists every answer that is missing or does not fit its question. The original questions
 * are echoed exactly as read, unknown fields included.
 */
export function buildAnswerFile(
  batch: QuestionBatch,
  answers: Record<string, Answer>,
): Result<AnswerFile, AnswerProblem[]> {
  const problems: AnswerProblem[] = [];
  const entries: AnswerEntry[] = [];
  for (const [index, question] of batch.questions.entries()) {
    const where = `question ${quote(question.id)} (questions[${index}])`;
    const refuse = (message: string) =>
      problems.push({ questionId: question.id, questionIndex: index, message });
    const answer = Object.hasOwn(answers, question.id) ? answers[question.id] : undefined;
    if (answer === undefined) {
      refuse(`${where} has no answer; expected ${expectedAnswer(question.type, question.options)}`);
      continue;
    }
    const mismatch = answerMismatch(question.type, question.options, answer);
    if (mismatch === undefined) entries.push(entryFor(question, answer));
    else refuse(`${where}: ${mismatch}`);
  }
  const ids = batch.questions.map((question) => question.id);
  for (const id of Object.keys(answers)) {
    if (ids.includes(id)) continue;
    const message = `answer given for ${quote(id)}, which is not a question of batch ${batch.seq} (its ids: ${listChoices(ids)})`;
    problems.push({ questionId: id, message });
  }
  if (problems.length > 0) return err(problems);
  const echoed = batch.source.questions;
  return ok({
    seq: batch.seq,
    answers: entries,
    questions: structuredClone(Array.isArray(echoed) ? echoed : batch.questions),
  });
}

/** The bytes of an answer file: 2-space JSON and a trailing newline. */
export function serializeAnswerFile(file: AnswerFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}
