import type { KnownBlock } from '@slack/types';
import { BLOCK_KIT_LIMITS } from './block-kit-limits.js';

/** How much of a message some blocks use. */
export interface BlockSize {
  blocks: number;
  /** characters in `markdown` blocks */
  markdown: number;
  /** characters in every `text` property (sections, context, buttons, options, rich text…) */
  text: number;
  /** text plus {@link BLOCK_COST} per block: what Slack's unpublished size ceiling counts */
  weight: number;
}

/**
 * Slack rejects messages whose blocks carry too much text in total (`msg_blocks_too_long`), a
 * ceiling it does not publish and that each block lowers: reports put it at 13,297 characters
 * of markdown in a few blocks, about 125 less for each block more, and saw one refused at
 * 11,341 characters. So a block counts as this many characters.
 */
export const BLOCK_COST = 125;

/**
 * The most text a message holds, block costs included; well under the ceiling above, so that
 * continuation messages take the rest. Should Slack refuse a page anyway, it is split smaller
 * (see `layoutAt`).
 */
export const MESSAGE_TEXT_BUDGET = 10_000;

/** What one message may hold. */
export const MESSAGE_BUDGET: BlockSize = {
  blocks: BLOCK_KIT_LIMITS.messageBlocks,
  markdown: BLOCK_KIT_LIMITS.markdownTotalPerMessage,
  text: MESSAGE_TEXT_BUDGET,
  weight: MESSAGE_TEXT_BUDGET,
};

/**
 * How a batch is laid out after Slack refused one of its pages `split` times: at first with
 * the budget above; once refused, with half of it; twice refused, also with every question on
 * a message of its own. Refused at that, the batch cannot be shown.
 */
export function layoutAt(split: number): { budget: BlockSize; alone: boolean } {
  if (split <= 0) return { budget: MESSAGE_BUDGET, alone: false };
  const half = (n: number) => Math.floor(n / 2);
  const budget = {
    blocks: MESSAGE_BUDGET.blocks,
    markdown: half(MESSAGE_BUDGET.markdown),
    text: half(MESSAGE_BUDGET.text),
    weight: half(MESSAGE_BUDGET.weight),
  };
  return { budget, alone: split >= MOST_SPLITS };
}

/** The split after which a refused batch is given up on (see `layoutAt`). */
export const MOST_SPLITS = 2;

/** Nothing placed yet. */
export const EMPTY_SIZE: BlockSize = { blocks: 0, markdown: 0, text: 0, weight: 0 };

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
  const text = textIn(blocks);
  return { blocks: blocks.length, markdown, text, weight: text + BLOCK_COST * blocks.length };
}

/** Component-wise sum. */
export const addSizes = (a: BlockSize, b: BlockSize): BlockSize => ({
  blocks: a.blocks + b.blocks,
  markdown: a.markdown + b.markdown,
  text: a.text + b.text,
  weight: a.weight + b.weight,
});

/** Component-wise difference. */
export const subtractSizes = (a: BlockSize, b: BlockSize): BlockSize => ({
  blocks: a.blocks - b.blocks,
  markdown: a.markdown - b.markdown,
  text: a.text - b.text,
  weight: a.weight - b.weight,
});

/** Component-wise maximum. */
export const maxSizes = (a: BlockSize, b: BlockSize): BlockSize => ({
  blocks: Math.max(a.blocks, b.blocks),
  markdown: Math.max(a.markdown, b.markdown),
  text: Math.max(a.text, b.text),
  weight: Math.max(a.weight, b.weight),
});

/** Whether `size` is within `budget` on every count. */
export const fitsWithin = (size: BlockSize, budget: BlockSize): boolean =>
  size.blocks <= budget.blocks &&
  size.markdown <= budget.markdown &&
  size.text <= budget.text &&
  size.weight <= budget.weight;
