import type { ProtocolProblem } from './protocol-error.js';

// The order fields are usually written in, so problems read top to bottom like the file.
const QA_FIELD_RANK = [
  'seq',
  'answers',
  'questions',
  'id',
  'type',
  'prompt',
  'options',
  'preview',
  'content',
  'answer',
];

const SEGMENT = /[A-Za-z_$][A-Za-z0-9_$]*|\[(\d+)\]|\["(?:[^"\\]|\\.)*"\]/g;

function segmentsOf(path: string): (string | number)[] {
  return Array.from(path.matchAll(SEGMENT), (match) =>
    match[1] === undefined ? match[0] : Number(match[1]),
  );
}

function rankOf(segment: string | number, fieldRank: readonly string[]): number {
  if (typeof segment === 'number') return segment;
  const rank = fieldRank.indexOf(segment);
  return rank === -1 ? fieldRank.length : rank;
}

function comparePaths(a: string, b: string, fieldRank: readonly string[]): number {
  const left = segmentsOf(a);
  const right = segmentsOf(b);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference =
      rankOf(left[i] as string | number, fieldRank) -
      rankOf(right[i] as string | number, fieldRank);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

/**
 * Puts problems in reading order: by index, then by field in `fieldRank` order (the Q&A
 * protocol's by default), a container before its items. Problems at the same path keep
 * their order.
 */
export function sortProblems(
  problems: readonly ProtocolProblem[],
  fieldRank: readonly string[] = QA_FIELD_RANK,
): ProtocolProblem[] {
  return [...problems].sort((a, b) => comparePaths(a.path, b.path, fieldRank));
}
