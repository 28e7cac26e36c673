import markdownit, {
  type MarkdownIt,
  type Options,
  type Ruler,
  type StateBlock,
  type StateInline,
  type Token,
} from 'markdown-it';
import type { LineSpan } from './markdown-cuts.js';
import { countBelow, type Source, sourceOf } from './markdown-source.js';

/**
 * The links, images and reference definitions a CommonMark reader (markdown-it) sees in a
 * text, placed in the text as written, and its blocks. markdown-it gives inline tokens no
 * source positions, so its link, image and reference rules are wrapped to note them: that
 * reaches into its rule lists (`__rules__`, not in its API), so package.json pins it with `~`
 * and test/core/slack/text/markdown-link-reader.test.ts checks what this file relies on.
 */

/** What one reading found in a text. */
export interface LinksRead {
  /**
   * false when the parse cannot be trusted: nested past the parser's limit, where it stops
   * reading and another reader would go on, or a link that could not be placed in the text
   */
  trusted: boolean;
  /** the links and images outside any other, in order, each with those in its text */
  links: Link[];
  /** where each reference definition's `[` is, in the text as written */
  definitions: number[];
  /** the lines of each block (but a list outside any other block, whose items are blocks) */
  blocks: LineSpan[];
  /** steps the parser took looking for the end of link text (see `noteScanSteps`) */
  scanSteps: number;
}

/** The links `reader` sees in `text` (as written), and its blocks. */
export function readLinks(text: string, reader: MarkdownIt): LinksRead {
  const source = sourceOf(text);
  const notes: Notes = { spans: new Map(), definitions: [], tooDeep: false, scanSteps: 0 };
  const tokens = reader.parse(source.read, { [NOTES]: notes });
  const limit = NESTING_LIMIT - 1;
  let trusted = !notes.tooDeep;
  const links: Link[] = [];
  const blocks: LineSpan[] = [];
  for (const token of tokens) {
    if (token.level >= limit) trusted = false;
    const list = token.level === 0 && LIST_OPENINGS.has(token.type);
    if (token.map !== null && !list) blocks.push(token.map);
    if (token.type !== 'inline' || token.children === null) continue;
    const place = placeInline(token, source);
    const found = linksAmong(token.children, 0, { place, spans: notes.spans, limit });
    if (found === undefined) trusted = false;
    else links.push(...found.links);
  }
  const definitions = notes.definitions.map(source.toWritten);
  return { trusted, links, definitions, blocks, scanSteps: notes.scanSteps };
}

/** Lists whose items are blocks of their own: one outside any other block. */
const LIST_OPENINGS = new Set(['bullet_list_open', 'ordered_list_open']);

/**
 * Creates a CommonMark reader (markdown-it) that also notes where each link, image and
 * reference definition is in the text. `htmlAsText` reads raw HTML as text, as a renderer
 * without HTML would.
 */
function createReader(htmlAsText: boolean): MarkdownIt {
  // markdown-it's own limit for CommonMark (its types leave the option out)
  const md = markdownit('commonmark', { maxNesting: NESTING_LIMIT } as Options);
  if (htmlAsText) md.disable(['html_block', 'html_inline']);
  // a destination as written (escapes and entities decoded), not percent-encoded, and every
  // scheme: a reader that follows `javascript:` links must see them too
  md.normalizeLink = (url) => url;
  md.normalizeLinkText = (text) => text;
  md.validateLink = () => true;
  noteSpans(md, 'link', 1, true);
  noteSpans(md, 'image', 2, false);
  noteDefinitions(md);
  noteScanSteps(md);
  return md;
}

/**
 * How deep the reader follows nesting: container blocks, and link text within link text.
 * Deeper, markdown-it stops reading (the rest of a block, or of a paragraph, is not parsed)
 * where another reader would go on, so such text is not trusted; and its label scans cost at
 * most about this many steps per character.
 */
const NESTING_LIMIT = 20;

const READERS = { standard: createReader(false), htmlAsText: createReader(true) };

/** One way to read the text: by which reader, after what (a byte order mark, or nothing). */
export interface Reading {
  reader: MarkdownIt;
  prefix: string;
}

/**
 * CommonMark reads `<div>` and `<b title="…">` as raw HTML, whose insides hold no links. Slack's
 * markdown block is not said to show HTML, and a renderer that takes it for text finds links
 * inside it. So text that may hold HTML is read both ways, and a link either reading sees is
 * rewritten. HTML as text comes first: a reference inside an HTML block then still finds its
 * definition, which the first reading escapes.
 *
 * A leading byte order mark is skipped by some readers and read as text by others (markdown-it
 * among them), which changes what the first line is (`\uFEFF    [a](b)` is code to one, a link
 * to the other): text that starts with one is read both with and without it.
 */
export function readingsOf(text: string, bom: string): Reading[] {
  const readers = MAY_HOLD_HTML.test(text)
    ? [READERS.htmlAsText, READERS.standard]
    : [READERS.standard];
  const prefixes = bom === '' ? [''] : ['', bom];
  return readers.flatMap((reader) => prefixes.map((prefix) => ({ reader, prefix })));
}

/**
 * Where raw HTML can start: a tag name followed by a space, `/`, `>` or the end, a closing tag,
 * `<!` (comments, declarations, CDATA) or `<?`. Without one, both readings are the same.
 * Autolinks (`<https://x>`) and comparisons (`a < b`) do not match.
 */
const MAY_HOLD_HTML = /<(?:[A-Za-z][A-Za-z0-9-]*(?:[\s/>]|$)|\/[A-Za-z]|[!?])/;

/** Where a link or image is, in the text its inline rule read. */
export interface Span {
  start: number;
  end: number;
  /** the text between its brackets */
  labelStart: number;
  labelEnd: number;
}

/** Where a link is, and whether it is a reference link: one that ends in `]`, not `)`. */
interface Noted extends Span {
  reference: boolean;
}

/** What one parse noted, kept in the parse's environment. */
interface Notes {
  spans: Map<Token, Noted>;
  /** where each reference definition's `[` is */
  definitions: number[];
  /** a bracket nested past the parser's limit was scanned: it stopped reading there */
  tooDeep: boolean;
  scanSteps: number;
}

const NOTES = Symbol('link spans');

const notesOf = (env: Record<symbol, unknown>): Notes => env[NOTES] as Notes;

/** A rule by name: markdown-it keeps them in `__rules__`, which its types leave out. */
function ruleOf<Rule>(ruler: Ruler<Rule>, name: string): { fn: Rule; alt: string[] } {
  const { __rules__: rules } = ruler as unknown as {
    __rules__: { name: string; fn: Rule; alt: string[] }[];
  };
  const rule = Array.isArray(rules) ? rules.find((entry) => entry.name === name) : undefined;
  if (rule === undefined) {
    throw new Error(
      `markdown-it has no rule ${name} in __rules__, which the link reader wraps: install the markdown-it version package.json pins (~), or adapt markdown-link-reader.ts and its test`,
    );
  }
  return rule;
}

/**
 * markdown-it gives inline tokens no source positions, so the `link` and `image` rules are
 * wrapped: the position before and after a match is the link's span, and the end of its text
 * is found by the same label scan the rule starts with (answered from the rule's own cache).
 */
function noteSpans(md: MarkdownIt, name: 'link' | 'image', opening: 1 | 2, noLinksInside: boolean) {
  const { fn: rule, alt } = ruleOf(md.inline.ruler, name);
  const wrapped = (state: StateInline, silent: boolean): boolean => {
    const start = state.pos;
    const before = state.tokens.length;
    if (!rule(state, silent)) return false;
    if (silent) return true;
    const labelEnd = md.helpers.parseLinkLabel(state, start + opening - 1, noLinksInside);
    const token =
      name === 'image'
        ? state.tokens.at(-1)
        : state.tokens.slice(before).find((t) => t.type === 'link_open');
    if (token !== undefined) {
      const reference = state.src.charCodeAt(state.pos - 1) === CLOSING_BRACKET;
      const span = { start, end: state.pos, labelStart: start + opening, labelEnd, reference };
      notesOf(state.env).spans.set(token, span);
    }
    return true;
  };
  md.inline.ruler.at(name, wrapped, { alt });
}

const CLOSING_BRACKET = 0x5d;

/** Definitions leave no token: the rule is wrapped to note where each one's `[` is. */
function noteDefinitions(md: MarkdownIt) {
  const { fn: rule, alt } = ruleOf(md.block.ruler, 'reference');
  const wrapped = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => {
    if (!rule(state, startLine, endLine, silent)) return false;
    if (!silent) {
      const at = (state.bMarks[startLine] as number) + (state.tShift[startLine] as number);
      notesOf(state.env).definitions.push(at);
    }
    return true;
  };
  md.block.ruler.at('reference', wrapped, { alt });
}

/**
 * A scan step: the parser skipping one token while it looks for the `]` that ends a link's
 * text, the one part of a parse that reads text more than once. markdown-it caches each
 * position's step, so a position is read again only by scans nested in other scans, at most
 * NESTING_LIMIT deep: at most two steps per character on each level, 0 to NESTING_LIMIT (from
 * an image's `!` and from its `[`), which the tests check on hostile shapes. Past that depth the parser gives up on
 * the rest of the paragraph, where a reader would go on: noted, so that text is not trusted.
 */
function noteScanSteps(md: MarkdownIt) {
  const skipToken = md.inline.skipToken.bind(md.inline);
  md.inline.skipToken = (state: StateInline) => {
    const notes = notesOf(state.env);
    notes.scanSteps += 1;
    if (state.level >= NESTING_LIMIT) notes.tooDeep = true;
    skipToken(state);
  };
}

/**
 * Where a position in an inline token's content is in the text as written, or undefined.
 * The content is its lines (`token.map`) less their container marks and indentation, and
 * trimmed: each content line, less its leading blanks, is the end of its source line (for a
 * heading, the part before any closing `#`s), so it is found by its last occurrence there.
 * Worked out on the first call: most inline tokens hold no link.
 */
function placeInline(token: Token, source: Source): (at: number) => number | undefined {
  let lines: ReturnType<typeof linesOf> | undefined;
  return (at) => {
    lines ??= linesOf(token, source);
    const k = countBelow(lines.contentStarts, at + 1) - 1;
    const column = at - (lines.contentStarts[k] ?? 0) - (lines.leads[k] ?? 0);
    const readStart = lines.readStarts[k];
    return readStart === undefined || column < 0 ? undefined : source.toWritten(readStart + column);
  };
}

function linesOf(token: Token, source: Source) {
  const placed = {
    contentStarts: [] as number[],
    leads: [] as number[],
    readStarts: [] as (number | undefined)[],
  };
  const [first, end] = token.map ?? [0, 0];
  const lines = token.content.split('\n');
  if (lines.length !== end - first) return placed;
  let contentStart = 0;
  for (const [k, line] of lines.entries()) {
    const lineStart = source.lineStarts[first + k] ?? source.read.length;
    const lineEnd = (source.lineStarts[first + k + 1] ?? source.read.length + 1) - 1;
    const rest = line.replace(/^[ \t]+/, '');
    const found = source.read.slice(lineStart, lineEnd).lastIndexOf(rest);
    // a line not found places nothing in it
    placed.contentStarts.push(contentStart);
    placed.leads.push(line.length - rest.length);
    placed.readStarts.push(found < 0 ? undefined : lineStart + found);
    contentStart += line.length + 1;
  }
  return placed;
}

/** A link or image as read, placed in the text as written. */
export interface Link {
  image: boolean;
  /** a reference link or image: its destination is a definition's */
  reference: boolean;
  url: string;
  /** what a reader sees of its text */
  text: string;
  /** where it is; undefined for an autolink */
  span: Span | undefined;
  /** links and images in its text */
  inside: Link[];
}

interface LinkContext {
  place: (at: number) => number | undefined;
  spans: Map<Token, Noted>;
  limit: number;
}

/**
 * The links among `tokens` (an inline token's children, or an image's, whose content starts
 * at `base`), and the text a reader sees of them; undefined if one cannot be placed or the
 * tokens nest past the parser's limit.
 */
function linksAmong(
  tokens: readonly Token[],
  base: number,
  context: LinkContext,
): { links: Link[]; text: string } | undefined {
  const links: Link[] = [];
  let text = '';
  // links being read, innermost last: an autolink can stand in a link's text
  const open: Link[] = [];
  for (const token of tokens) {
    if (token.level >= context.limit) return undefined;
    let seen = '';
    if (token.type === 'link_open') {
      const noted = context.spans.get(token);
      const span = placed(noted, base, context);
      if (span === null) return undefined;
      const url = token.attrGet('href') ?? '';
      const reference = noted?.reference ?? false;
      open.push({ image: false, reference, url, text: '', span, inside: [] });
    } else if (token.type === 'link_close') {
      const link = open.pop();
      // an autolink shows its destination; a link that does not cannot be left unplaced
      if (link === undefined || (link.span === undefined && !showsDestination(link))) {
        return undefined;
      }
      (open.at(-1)?.inside ?? links).push(link);
    } else if (token.type === 'image') {
      // its text was read on its own: positions in it count from its opening bracket
      const noted = context.spans.get(token);
      if (noted === undefined) return undefined;
      const span = placed(noted, base, context);
      const alt = linksAmong(token.children ?? [], base + noted.labelStart, context);
      if (span === null || span === undefined || alt === undefined) return undefined;
      const url = token.attrGet('src') ?? '';
      const { reference } = noted;
      const image = { image: true, reference, url, text: alt.text, span, inside: alt.links };
      (open.at(-1)?.inside ?? links).push(image);
      seen = alt.text;
    } else {
      seen = visibleText(token);
    }
    text += seen;
    for (const link of open) link.text += seen;
  }
  if (open.length > 0) return undefined;
  return { links, text };
}

/** A span in the text as written; undefined if none was noted, null if it cannot be placed. */
function placed(
  span: Span | undefined,
  base: number,
  context: LinkContext,
): Span | undefined | null {
  if (span === undefined) return undefined;
  const [start, end, labelStart, labelEnd] = [
    span.start,
    span.end,
    span.labelStart,
    span.labelEnd,
  ].map((at) => context.place(base + at));
  if (start === undefined || end === undefined) return null;
  if (labelStart === undefined || labelEnd === undefined) return null;
  return { start, end, labelStart, labelEnd };
}

/** What a reader sees of one inline token that is not a link or image. */
function visibleText(token: Token): string {
  switch (token.type) {
    case 'text':
    case 'text_special':
    case 'code_inline':
    case 'html_inline':
      return token.content;
    case 'softbreak':
    case 'hardbreak':
      return '\n';
    default:
      return '';
  }
}

/** A link whose whole visible text is its destination (an autolink, `[https://x](https://x)`). */
export const showsDestination = (link: Link): boolean =>
  !link.image &&
  !link.reference &&
  link.text !== '' &&
  (link.text === link.url || link.url === `mailto:${link.text}`);
