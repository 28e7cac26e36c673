import type { Question } from '../protocol/question.js';
import { BLOCK_KIT_LIMITS } from './block-kit-limits.js';

/** Which question a modal is about, as kept in its `private_metadata`. */
export interface ModalTarget {
  key: string;
  revision: string;
  questionId: string;
}

/**
 * `private_metadata` for a modal: `{ key, revision, questionId, questionIndex }` as JSON. The
 * id is left out (the index stands in) in the unlikely case it would not fit in 3000.
 */
export function modalMetadata(target: ModalTarget, questionIndex: number): string {
  const full = JSON.stringify({ ...target, questionIndex });
  if (full.length <= BLOCK_KIT_LIMITS.privateMetadata) return full;
  return JSON.stringify({ key: target.key, revision: target.revision, questionIndex });
}

/** Reads `private_metadata` written by `modalMetadata`; `undefined` if it is not ours. */
export function parseModalMetadata(
  text: string,
  questions: readonly Question[],
): ModalTarget | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null) return undefined;
  const { key, revision, questionId, questionIndex } = data as Record<string, unknown>;
  if (typeof key !== 'string' || typeof revision !== 'string') return undefined;
  if (typeof questionId === 'string') return { key, revision, questionId };
  const byIndex = typeof questionIndex === 'number' ? questions[questionIndex] : undefined;
  return byIndex ? { key, revision, questionId: byIndex.id } : undefined;
}
