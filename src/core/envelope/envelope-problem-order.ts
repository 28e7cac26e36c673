import { sortProblems } from '../protocol/problem-order.js';
import type { ProtocolProblem } from '../protocol/protocol-error.js';

// The order the contract writes the fields in, so problems read top to bottom like the envelope.
const ENVELOPE_FIELD_RANK = [
  'openQuestions',
  'question',
  'header',
  'options',
  'label',
  'description',
];

/** Puts envelope problems in reading order: by question, then field as the contract lists them. */
export function sortEnvelopeProblems(problems: readonly ProtocolProblem[]): ProtocolProblem[] {
  return sortProblems(problems, ENVELOPE_FIELD_RANK);
}
