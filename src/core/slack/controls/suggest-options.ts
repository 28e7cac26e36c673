import type { Question } from '../../protocol/questions/question.js';
import { BLOCK_KIT_LIMITS } from '../layout/block-kit-limits.js';
import { optionLabel } from '../messages/render-options.js';

/** One entry of an external select's option list: label and index. */
export interface SuggestedOption {
  text: string;
  value: string;
}

/**
 * Options of a question whose full text contains `query` (case-insensitive), for an external
 * select's type-ahead: at most 100, in the question's order, each valued by its index.
 */
export function suggestOptions(question: Question, query: string): SuggestedOption[] {
  const needle = query.trim().toLocaleLowerCase();
  const found: SuggestedOption[] = [];
  for (const [index, text] of (question.options ?? []).entries()) {
    if (found.length >= BLOCK_KIT_LIMITS.selectOptions) break;
    if (needle === '' || text.toLocaleLowerCase().includes(needle)) {
      found.push({ text: optionLabel(text), value: String(index) });
    }
  }
  return found;
}
