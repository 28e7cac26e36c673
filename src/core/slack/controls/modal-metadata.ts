import type { Question } from '../../protocol/questions/question.js';
import { BLOCK_KIT_LIMITS } from '../layout/block-kit-limits.js';

/** Which question a modal is about, as kept in its `private_metadata`. */
export interface ModalTarget {
  key: string;
  revision: string;
  questionId: string;
  /** the option a form answers with (the note form's), by its index */
  option?: number;
}

/** What the metadata may take of Slack's 3000 characters: the edge seals it (see `ModalSeal`). */
const METADATA_ROOM = BLOCK_KIT_LIMITS.privateMetadata - 64;

/**
 * `private_metadata` for a modal: `{ key, revision, questionId, questionIndex, option? }` as
 * JSON. The id is left out (the index stands in) in the unlikely case it would not fit in 3000.
 */
export function modalMetadata(target: ModalTarget, questionIndex: number): string {
  const full = JSON.stringify({ ...target, questionIndex });
  if (full.length <= METADATA_ROOM) return full;
  const { questionId: _, ...short } = target;
  return JSON.stringify({ ...short, questionIndex });
}

function readJson(text: string): Record<string, unknown> | undefined {
  try {
    const data: unknown = JSON.parse(text);
    return typeof data === 'object' && data !== null
      ? (data as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The batch key in `private_metadata` written by `modalMetadata`. A long question id may have
 * been left out, so look the batch up by this key first and then pass its questions to
 * `parseModalMetadata`.
 */
export function modalMetadataKey(text: string): string | undefined {
  const key = readJson(text)?.key;
  return typeof key === 'string' ? key : undefined;
}

/**
 * Reads `private_metadata` written by `modalMetadata`; `questions` (the batch's, in order)
 * turn a `questionIndex` back into the id. `undefined` if it is not ours.
 */
export function parseModalMetadata(
  text: string,
  questions: readonly Question[],
): ModalTarget | undefined {
  const data = readJson(text);
  if (!data) return undefined;
  const { key, revision, questionId, questionIndex, option } = data;
  if (typeof key !== 'string' || typeof revision !== 'string') return undefined;
  const chosen = Number.isSafeInteger(option) ? { option: option as number } : {};
  if (typeof questionId === 'string') return { key, revision, questionId, ...chosen };
  const byIndex = typeof questionIndex === 'number' ? questions[questionIndex] : undefined;
  return byIndex ? { key, revision, questionId: byIndex.id, ...chosen } : undefined;
}
