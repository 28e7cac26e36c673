/** The text as written, and as markdown-it reads it: `\r\n` and `\r` as `\n`, NUL as U+FFFD. */
export interface Source {
  read: string;
  /** where each line of `read` starts */
  lineStarts: number[];
  /** a position in `read` as a position in the text as written */
  toWritten: (at: number) => number;
}

/** The text as markdown-it reads it, where its lines start, and the way back to `written`. */
export function sourceOf(written: string): Source {
  const read = written.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD');
  const lineStarts = [0];
  for (let at = read.indexOf('\n'); at !== -1; at = read.indexOf('\n', at + 1)) {
    lineStarts.push(at + 1);
  }
  // each `\r\n` read as one `\n` moves what follows one place
  const joined: number[] = [];
  for (let at = written.indexOf('\r\n'); at !== -1; at = written.indexOf('\r\n', at + 2)) {
    joined.push(at - joined.length);
  }
  const toWritten = (at: number) => at + countBelow(joined, at);
  return { read, lineStarts, toWritten };
}

/** How many of the sorted `values` are below `limit`. */
export function countBelow(values: readonly number[], limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((values[middle] as number) < limit) low = middle + 1;
    else high = middle;
  }
  return low;
}
