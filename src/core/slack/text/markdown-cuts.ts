import { type Edit, positionsBefore } from './markdown-edits.js';
import { sourceOf } from './markdown-source.js';

/**
 * A place to cut defused Markdown: a line start between blocks under every reading (or between
 * the items of a list that is not inside another block). What comes before it reads as it does
 * in the whole text, so it hides no link either, and needs no new parse.
 */
export interface Cut {
  /** where in the defused Markdown */
  defused: number;
  /** where in the Markdown as written */
  written: number;
}

/** Lines `[start, end)` of a block: the text cannot be cut inside it. */
export type LineSpan = [start: number, end: number];

/**
 * Where defused `text` can be cut: the starts of the lines no block of `blocks` (every reading's
 * blocks of it) goes on across, each with where it was before the edits of `history`.
 */
export function cutsOf(
  text: string,
  blocks: readonly LineSpan[],
  history: readonly Edit[][],
  bom: string,
): Cut[] {
  const { lineStarts, toWritten } = sourceOf(text);
  // blocks going on across each line start: one more after each block's first line, one fewer
  // at its end
  const across = new Int32Array(lineStarts.length + 1);
  for (const [start, end] of blocks) {
    if (end - start < 2) continue;
    across[start + 1] = (across[start + 1] as number) + 1;
    across[end] = (across[end] as number) - 1;
  }
  const places: number[] = [];
  let open = 0;
  for (const [line, start] of lineStarts.entries()) {
    open += across[line] as number;
    const at = toWritten(start);
    const spaced = at - (places.at(-1) ?? 0) >= CUT_SPACING;
    if (line > 0 && open === 0 && at < text.length && spaced) places.push(at);
  }
  const written = history.reduceRight(
    (positions, edits) => positionsBefore(edits, positions),
    places,
  );
  return places.map((at, i) => ({
    defused: bom.length + at,
    written: bom.length + (written[i] as number),
  }));
}

/**
 * How far apart cuts are kept at least: a preview cut at one loses at most this much room, and a
 * text of short lines keeps a few hundred cuts, not thousands, in the memo.
 */
const CUT_SPACING = 64;
