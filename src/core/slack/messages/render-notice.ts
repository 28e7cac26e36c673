import type { KnownBlock } from '@slack/types';
import { mrkdwnSection } from '../layout/block-builders.js';
import { BLOCK_KIT_LIMITS } from '../layout/block-kit-limits.js';
import { MESSAGE_TEXT_BUDGET } from '../layout/message-budget.js';
import { ELLIPSIS, splitEscaped } from '../text/text-cut.js';

// An ephemeral notice is a sentence or two; anything longer is cut to stay within the budget.
const MOST_SECTIONS = Math.floor(MESSAGE_TEXT_BUDGET / BLOCK_KIT_LIMITS.sectionText);

/** Blocks for an ephemeral notice: the text escaped, in sections of at most 3000 characters. */
export function renderNotice(text: string): KnownBlock[] {
  const source = text.trim() === '' ? '(empty notice)' : text;
  const chunks = splitEscaped(source, BLOCK_KIT_LIMITS.sectionText - ELLIPSIS.length);
  const kept = chunks.slice(0, MOST_SECTIONS);
  if (chunks.length > kept.length) kept[kept.length - 1] += ELLIPSIS;
  return kept.map((chunk) => mrkdwnSection(chunk));
}
