/** A replacement of `source.slice(start, end)` by `text`. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** `source` from `from` to `to` with `edits` made: in order, never overlapping, all inside. */
export function applyEdits(
  source: string,
  edits: readonly Edit[],
  from: number,
  to: number,
): string {
  let result = '';
  let at = from;
  for (const edit of edits) {
    result += source.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return result + source.slice(at, to);
}

/**
 * Where ascending `positions` in a text were before `edits` were made to it: a position inside
 * an edit's text was at the edit's start.
 */
export function positionsBefore(edits: readonly Edit[], positions: readonly number[]): number[] {
  let next = 0;
  let grown = 0;
  return positions.map((at) => {
    for (let edit = edits[next]; edit !== undefined; edit = edits[next]) {
      const start = edit.start + grown;
      if (at <= start) break;
      if (at < start + edit.text.length) return edit.start;
      grown += edit.text.length - (edit.end - edit.start);
      next += 1;
    }
    return at - grown;
  });
}
