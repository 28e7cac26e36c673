import { asCodeBlock } from './code-block.js';
import { type Cut, cutsOf, type LineSpan } from './markdown-cuts.js';
import { applyEdits, type Edit } from './markdown-edits.js';
import {
  type Link,
  type Reading,
  readingsOf,
  readLinks,
  type Span,
  showsDestination,
} from './markdown-link-reader.js';

/**
 * Agent-written Markdown, rewritten so that no link hides where it goes: `[Approve](https://evil)`
 * would read "Approve". Links are found by a CommonMark parser, and every link, image and
 * reference link whose visible text is not exactly its destination becomes text: its brackets
 * are escaped and its destination is written after it, `\[Approve\] (https://evil)`, which reads
 * "[Approve] (https://evil)". Reference definitions (`[go]: https://evil`) are escaped into
 * visible text too, so no reference can resolve. Autolinks (`<https://x>`) already show their
 * destination and stay. Everything else is kept as written, code included.
 *
 * Rewriting can make new links of brackets around the old ones (`[a [b](c)](d)`), so the text
 * is parsed again until nothing is left to rewrite. Text that needs more than a few passes, or
 * nests deeper than the parser follows, is shown whole as a code block instead.
 */
export function defuseMarkdownLinks(markdown: string): string {
  return defusedMarkdown(markdown).markdown;
}

/** Defused Markdown, and where it can be cut: see `defusedMarkdown`. */
export interface DefusedMarkdown {
  markdown: string;
  /** ascending, CUT_SPACING (markdown-cuts.ts) apart or more; none when not parsed or code */
  cuts: readonly Cut[];
}

/** `defuseMarkdownLinks`, with where the defused text can be cut to be shorter. */
export function defusedMarkdown(markdown: string): DefusedMarkdown {
  // a batch is rendered again on every click, each time with the same previews: the texts
  // used last are kept
  const defused = recent.get(markdown) ?? defusalOf(markdown);
  recent.delete(markdown);
  if (recent.size >= RECENT_KEPT) recent.delete(recent.keys().next().value as string);
  recent.set(markdown, defused);
  return defused;
}

/** Defused texts by their Markdown, least recently used first. */
const recent = new Map<string, DefusedMarkdown>();
const RECENT_KEPT = 64;

/**
 * Defused Markdown, and the work it took: a parse is linear in the characters it reads but for
 * scan steps, which the nesting limit bounds (see `noteScanSteps` in markdown-link-reader.ts).
 */
export interface Defusal extends DefusedMarkdown {
  /** parses of the whole text: at most MAX_PASSES for each reading (see `readingsOf`) */
  parses: number;
  /** characters those parses read: each text read is at most LENGTH_FACTOR times the written */
  charactersRead: number;
  /** steps the parser took looking for the end of link text, over all parses */
  scanSteps: number;
}

/** The work of defusing, counted as it is done. */
type Work = Omit<Defusal, 'markdown' | 'cuts'>;

/** Defuses `markdown` without the memo, counting the work (for tests and the bench). */
export function defusalOf(markdown: string): Defusal {
  const work: Work = { parses: 0, charactersRead: 0, scanSteps: 0 };
  // every link, image, reference and definition starts with a bracket
  if (!markdown.includes('[')) return { markdown, cuts: [], ...work };
  const bom = markdown.startsWith(BYTE_ORDER_MARK) ? BYTE_ORDER_MARK : '';
  const body = markdown.slice(bom.length);
  const longest = LENGTH_FACTOR * body.length + 256;
  // no byte order mark before the fence: a reader that takes it for text would see no fence
  const asCode = () => ({ markdown: asCodeBlock(body), cuts: [], ...work });
  let text = body;
  // the edits of each reading, in the order they were made
  const history: Edit[][] = [];
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    let rewritten = false;
    const blocks: LineSpan[] = [];
    for (const reading of readingsOf(text, bom)) {
      const read = linkEdits(text, reading, work, longest - text.length);
      if (read === undefined) return asCode();
      if (read.edits.length > 0) {
        text = applyEdits(text, read.edits, 0, text.length);
        history.push(read.edits);
        rewritten = true;
      }
      blocks.push(...read.blocks);
    }
    // each reading found nothing to rewrite: its blocks are the defused text's
    if (!rewritten) {
      return { markdown: bom + text, cuts: cutsOf(text, blocks, history, bom), ...work };
    }
  }
  return asCode();
}

const BYTE_ORDER_MARK = '\uFEFF';

/** Each level of brackets around a link takes a pass; real text needs one, then one to check. */
const MAX_PASSES = 4;

/**
 * How many times longer than written a text may get. A link grows by its escapes and three
 * characters, but each reference to a definition writes out the definition's destination: a
 * thousand `[r]` and one long `[r]: …` would make megabytes for the next pass to read.
 */
const LENGTH_FACTOR = 4;

/**
 * The edits that defuse every link `reader` sees in `text`, in order and never overlapping, and
 * the blocks it read; undefined when the parse cannot be trusted (nested past the parser's
 * limit) or a link could not be placed in the text.
 */
function linkEdits(
  text: string,
  { reader, prefix }: Reading,
  work: Work,
  room: number,
): { edits: Edit[]; blocks: LineSpan[] } | undefined {
  const read = prefix + text;
  const found = readLinks(read, reader);
  work.parses += 1;
  work.charactersRead += read.length;
  work.scanSteps += found.scanSteps;
  if (!found.trusted) return undefined;
  const budget = { room: room - found.definitions.length };
  // `\[go]: https://evil` is a line of text that defines nothing
  const edits: Edit[] = found.definitions.map((at) => ({ start: at, end: at, text: '\\' }));
  const more = editsFor(found.links, read, budget);
  if (more === undefined) return undefined;
  edits.push(...more);
  edits.sort((a, b) => a.start - b.start);
  const overlapping = edits.some((edit, i) => i > 0 && edit.start < (edits[i - 1] as Edit).end);
  if (overlapping || (edits[0]?.start ?? prefix.length) < prefix.length) return undefined;
  const shifted = edits.map((edit) => ({
    ...edit,
    start: edit.start - prefix.length,
    end: edit.end - prefix.length,
  }));
  return { edits: shifted, blocks: found.blocks };
}

/**
 * The edits for `links` and the links inside them, in source order and never overlapping;
 * undefined once they would make the text longer than `budget.room` allows.
 */
function editsFor(
  links: readonly Link[],
  source: string,
  budget: { room: number },
): Edit[] | undefined {
  const edits: Edit[] = [];
  for (const link of links) {
    const inside = editsFor(link.inside, source, budget);
    if (inside === undefined) return undefined;
    if (showsDestination(link)) {
      edits.push(...inside);
      continue;
    }
    // a link that hides where it goes and cannot be placed is not trusted above
    const span = link.span as Span;
    const text = asText(link, span, inside, source);
    budget.room -= text.length - (span.end - span.start);
    if (budget.room < 0) return undefined;
    edits.push({ start: span.start, end: span.end, text });
  }
  return edits;
}

/**
 * `[text](url "title")`, `![alt][ref]` and the like as `\[text\] (url)`: the same kind of
 * characters open and close it (so emphasis around it, and the line it starts, read as before),
 * the text between the brackets is kept as written (links inside it rewritten), and the
 * destination follows, escaped so it shows exactly as it is.
 */
function asText(link: Link, span: Span, inside: readonly Edit[], source: string): string {
  const text = applyEdits(source, inside, span.labelStart, span.labelEnd);
  return `${link.image ? '!' : ''}\\[${text}\\] (${escapeDestination(link.url)})`;
}

/** Characters that could start or end markup around the destination are backslash-escaped. */
const escapeDestination = (url: string): string => url.replace(/[\\`*_[\]<>&~|]/g, '\\$&');
