import {
  answersById,
  type ReadExtras,
  readEnvelopeExtras,
} from '../core/envelope/follow-up-text.js';
import { parseAnswerFile } from '../core/protocol/answers/parse-answer-file.js';
import { formatProtocolError } from '../core/protocol/protocol-error.js';
import { err, ok, type Result } from '../core/result.js';
import type { RelayAsk } from './ask-relay.js';

/** An answered ask, read: the choose answers by question id, the typed text, who submitted. */
export interface AskAnswers extends ReadExtras {
  answers: Record<string, string | string[]>;
}

/**
 * Reads the answer file of an answered ask against the batch it answers, with the relay's
 * extra fields: what `ask`, the hook and the MCP tools pass on. The error is the protocol
 * error in words (file, JSON path, what was wrong).
 */
export function readAskAnswers(
  outcome: Extract<RelayAsk, { kind: 'answered' }>,
): Result<AskAnswers, string> {
  const file = outcome.answerFile;
  const parsed = parseAnswerFile(outcome.text, file, outcome.batch);
  if (!parsed.ok) return err(formatProtocolError(parsed.error));
  const extras = readEnvelopeExtras(JSON.parse(outcome.text));
  if (!extras.ok) return err(formatProtocolError({ file, problems: extras.error }));
  return ok({ answers: answersById(parsed.value), ...extras.value });
}
