import type { ProtocolProblem } from '../protocol/protocol-error.js';

// The order the contract writes the fields in, so problems read top to bottom like the envelope.
const FIELD_RANK = ['openQuestions', 'question', 'header', 'options', 'label', 'description'];

const SEGMENT = /[A-Za-z_$][A-Za-z0-9_$]*|\[(\d+)\]|\["(?:[^"\\]|\\.)*"\]/g;

const segmentsOf = (path: string): (string | number)[] =>
  Array.from(path.matchAll(SEGMENT), (match) =>
    match[1] === undefined ? match[0] : Number(match[1]),
  );

function rankOf(segment: string | number): number {
  if (typeof segment === 'number') return segment;
  const rank = FIELD_RANK.indexOf(segment);
  return rank === -1 ? FIELD_RANK.length : rank;
}

function comparePaths(a: string, b: string): number {
  const left = segmentsOf(a);
  const right = segmentsOf(b);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = rankOf(left[i] as string | number) - rankOf(right[i] as string | number);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

/**
 * Puts envelope problems in reading order: by question, then field as the contract lists
 * them, then option, a container before its items. Problems at the same path keep their order.
 */
export function sortEnvelopeProblems(problems: readonly ProtocolProblem[]): ProtocolProblem[] {
  return [...problems].sort((a, b) => comparePaths(a.path, b.path));
}
