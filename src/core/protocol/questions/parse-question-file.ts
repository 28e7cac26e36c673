import { err, ok, type Result } from '../../result.js';
import { checkSeqMatchesName } from '../file-seq.js';
import { parseProtocolJson } from '../json/protocol-json.js';
import { sortProblems } from '../problem-order.js';
import { type ProtocolError, protocolError } from '../protocol-error.js';
import { isRecord, problemsFromZod } from '../schema-messages.js';
import type { Question, QuestionBatch } from './question.js';
import { questionFileSchema } from './question-file-schema.js';

/**
 * Reads the text of a `q-out-NNN.json` file into a batch, or lists every problem in it.
 * Pure: `filePath` only names the file in messages and supplies the NNN that `seq` must match.
 */
export function parseQuestionFile(
  text: string,
  filePath: string,
): Result<QuestionBatch, ProtocolError> {
  const json = parseProtocolJson(text);
  if (!json.ok) return err({ file: filePath, problems: json.error });
  const parsed = questionFileSchema.safeParse(json.value);
  const problems = sortProblems([
    ...checkSeqMatchesName(json.value, filePath, 'question'),
    ...(parsed.success ? [] : problemsFromZod(parsed.error)),
  ]);
  if (!parsed.success || problems.length > 0 || !isRecord(json.value)) {
    return err(protocolError(filePath, problems));
  }
  const questions: Question[] = parsed.data.questions;
  return ok({ seq: parsed.data.seq, questions, source: json.value });
}
