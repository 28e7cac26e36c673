import type { KnownBlock } from '@slack/types';
import {
  addSizes,
  BLOCK_COST,
  type BlockSize,
  EMPTY_SIZE,
  fitsWithin,
  measureBlocks,
} from './message-budget.js';

/** One question ready to place: a preview that can be cut to a room, then the rest. */
export interface QuestionParts {
  /** the preview's blocks with at most `room` characters of content; absent without a preview */
  preview?: (room: number) => KnownBlock[];
  body: KnownBlock[];
}

/** The question blocks of one message and which questions they belong to. */
export interface Page {
  blocks: KnownBlock[];
  size: BlockSize;
  /** indices of the questions with blocks on this page, ascending */
  questions: number[];
}

// A cut preview still shows a useful start; the note and button after it need a little text.
const MIN_PREVIEW_ROOM = 1000;
const CUT_NOTE_ROOM = 200;
// Blocks a cut preview takes (its text, the note, the button), each costing BLOCK_COST.
const PREVIEW_BLOCKS = 3;

const emptyPage = (): Page => ({ blocks: [], size: EMPTY_SIZE, questions: [] });

/**
 * Fills pages of at most `capacity` with the questions in order. A question goes whole onto the
 * current page if it fits (and the page holds no question yet, when `alone`), else whole onto a
 * fresh one; one too big for any page gets its preview cut to leave room for the rest and flows
 * on block by block.
 */
export function packQuestions(
  parts: readonly QuestionParts[],
  capacity: BlockSize,
  alone = false,
): Page[] {
  const pages: Page[] = [emptyPage()];
  const current = (): Page => pages[pages.length - 1] as Page;
  const place = (page: Page, blocks: KnownBlock[], size: BlockSize, index: number): void => {
    page.blocks.push(...blocks);
    page.size = addSizes(page.size, size);
    if (page.questions[page.questions.length - 1] !== index) page.questions.push(index);
  };
  const freshPage = (): Page => {
    if (current().blocks.length > 0) pages.push(emptyPage());
    return current();
  };

  parts.forEach((part, index) => {
    const bodySize = measureBlocks(part.body);
    const whole = [...(part.preview?.(Number.POSITIVE_INFINITY) ?? []), ...part.body];
    const wholeSize = measureBlocks(whole);
    const roomHere = !alone || current().blocks.length === 0;
    if (roomHere && fitsWithin(addSizes(current().size, wholeSize), capacity)) {
      place(current(), whole, wholeSize, index);
      return;
    }
    if (fitsWithin(wholeSize, capacity)) {
      place(freshPage(), whole, wholeSize, index);
      return;
    }
    freshPage();
    const room = Math.max(
      MIN_PREVIEW_ROOM,
      Math.min(
        capacity.text - bodySize.text,
        capacity.markdown - bodySize.markdown,
        capacity.weight - bodySize.weight - PREVIEW_BLOCKS * BLOCK_COST,
      ) - CUT_NOTE_ROOM,
    );
    for (const block of [...(part.preview?.(room) ?? []), ...part.body]) {
      const size = measureBlocks([block]);
      const page = fitsWithin(addSizes(current().size, size), capacity) ? current() : freshPage();
      place(page, [block], size, index);
    }
  });
  return pages;
}
