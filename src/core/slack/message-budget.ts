import type { KnownBlock } from '@slack/types';
import { BLOCK_KIT_LIMITS } from './block-kit-limits.js';

/** How much of a message some blocks use. */
export interface BlockSize {
  blocks: number;
  /** characters in `markdown` blocks */
  markdown: number;
  /** characters in every `text` property (sections, context, buttons, options, rich text…) */
  text: number;
}

/**
 * Slack also rejects messages whose blocks carry too much text in total
 * (`msg_blocks_too_long`), a limit it does not publish: reports put it near 12,000 text
 * characters plus an allowance for block structure, and one saw a rejection at 11,341. The
 * renderer keeps every message at or under 10,000 so continuation messages take the rest.
 */
export const MESSAGE_TEXT_BUDGET = 10_000;

/** What one message may hold. */
export const MESSAGE_BUDGET: BlockSize = {
  blocks: BLOCK_KIT_LIMITS.messageBlocks,
  markdown: BLOCK_KIT_LIMITS.markdownTotalPerMessage,
  text: MESSAGE_TEXT_BUDGET,
};

/** Nothing placed yet. */
export const EMPTY_SIZE: BlockSize = { blocks: 0, markdown: 0, text: 0 };

// Initial selections repeat option objects already counted under `options`.
const NOT_COUNTED = new Set(['initial_option', 'initial_options']);

function textIn(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + textIn(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  let sum = 0;
  for (const [name, child] of Object.entries(value)) {
    if (NOT_COUNTED.has(name)) continue;
    sum += name === 'text' && typeof child === 'string' ? child.length : textIn(child);
  }
  return sum;
}

/** Measures blocks the way the budget counts them. */
export function measureBlocks(blocks: readonly KnownBlock[]): BlockSize {
  let markdown = 0;
  for (const block of blocks) if (block.type === 'markdown') markdown += block.text.length;
  return { blocks: blocks.length, markdown, text: textIn(blocks) };
}

/** Component-wise sum. */
export const addSizes = (a: BlockSize, b: BlockSize): BlockSize => ({
  blocks: a.blocks + b.blocks,
  markdown: a.markdown + b.markdown,
  text: a.text + b.text,
});

/** Component-wise difference. */
export const subtractSizes = (a: BlockSize, b: BlockSize): BlockSize => ({
  blocks: a.blocks - b.blocks,
  markdown: a.markdown - b.markdown,
  text: a.text - b.text,
});

/** Component-wise maximum. */
export const maxSizes = (a: BlockSize, b: BlockSize): BlockSize => ({
  blocks: Math.max(a.blocks, b.blocks),
  markdown: Math.max(a.markdown, b.markdown),
  text: Math.max(a.text, b.text),
});

/** Whether `size` is within `budget` on every count. */
export const fitsWithin = (size: BlockSize, budget: BlockSize): boolean =>
  size.blocks <= budget.blocks && size.markdown <= budget.markdown && size.text <= budget.text;
