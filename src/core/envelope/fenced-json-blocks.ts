/** A fenced code block tagged `json`, with its text as the fence encloses it. */
export interface FencedJsonBlock {
  /** 1-based count among the message's `json` blocks only (other fenced blocks are not counted). */
  number: number;
  /** The lines between the fences, joined with `\n`, the opening fence's indentation removed. */
  content: string;
}

// CommonMark: up to three spaces, then three or more backticks or tildes, then the info string.
const OPENING = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const CLOSING = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

interface OpenFence {
  char: string;
  length: number;
  indent: number;
  json: boolean;
  lines: string[];
}

const isJsonInfo = (info: string): boolean => info.trim().toLowerCase() === 'json';

/**
 * Finds the ```` ```json ```` and `~~~json` blocks of a Markdown message, in order. Fences
 * follow CommonMark: a block closes at a fence of the same character at least as long as the
 * one that opened it, so a json fence quoted inside a longer or other-kind block is content,
 * not a block; a block left open runs to the end of the message.
 */
export function findFencedJsonBlocks(message: string): FencedJsonBlock[] {
  const blocks: FencedJsonBlock[] = [];
  let open: OpenFence | undefined;
  const close = (fence: OpenFence): void => {
    if (fence.json) blocks.push({ number: blocks.length + 1, content: fence.lines.join('\n') });
  };
  for (const line of message.split(/\r?\n/)) {
    if (open === undefined) {
      const match = OPENING.exec(line);
      if (match === null) continue;
      const [, indent = '', fence = '', info = ''] = match;
      // a backtick in a backtick fence's info string makes the line inline code, not a fence
      if (fence.startsWith('`') && info.includes('`')) continue;
      const char = fence.charAt(0);
      open = {
        char,
        length: fence.length,
        indent: indent.length,
        json: isJsonInfo(info),
        lines: [],
      };
      continue;
    }
    const closing = CLOSING.exec(line)?.[1];
    if (closing?.startsWith(open.char) && closing.length >= open.length) {
      close(open);
      open = undefined;
      continue;
    }
    const strip = Math.min(open.indent, /^ */.exec(line)?.[0].length ?? 0);
    open.lines.push(line.slice(strip));
  }
  if (open !== undefined) close(open);
  return blocks;
}
