import markdownit, {
  type MarkdownIt,
  type Options,
  type Ruler,
  type StateBlock,
  type StateInline,
  type Token,
} from 'markdown-it';

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
  /** ascending, CUT_SPACING apart or more; none when the text was not parsed or is code */
  cuts: readonly Cut[];
}

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
 * scan steps, which the nesting limit bounds (see `noteScanSteps`).
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
interface Reading {
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
function readingsOf(text: string, bom: string): Reading[] {
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
interface Span {
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
  const rule = rules.find((entry) => entry.name === name);
  if (rule === undefined) throw new Error(`markdown-it has no rule ${name}`);
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

/** A replacement of `source.slice(start, end)` by `text`. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Lines `[start, end)` of a block: the text cannot be cut inside it. */
type LineSpan = [start: number, end: number];

/** Lists whose items are blocks of their own: one outside any other block. */
const LIST_OPENINGS = new Set(['bullet_list_open', 'ordered_list_open']);

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
  const source = sourceOf(read);
  const notes: Notes = { spans: new Map(), definitions: [], tooDeep: false, scanSteps: 0 };
  const tokens = reader.parse(source.read, { [NOTES]: notes });
  work.parses += 1;
  work.charactersRead += read.length;
  const limit = NESTING_LIMIT - 1;
  let trusted = !notes.tooDeep;
  const budget = { room: room - notes.definitions.length };
  const edits: Edit[] = notes.definitions.map((at) => {
    // `\[go]: https://evil` is a line of text that defines nothing
    const start = source.toWritten(at);
    return { start, end: start, text: '\\' };
  });
  const blocks: LineSpan[] = [];
  for (const token of tokens) {
    if (token.level >= limit) trusted = false;
    const list = token.level === 0 && LIST_OPENINGS.has(token.type);
    if (token.map !== null && !list) blocks.push(token.map);
    if (token.type !== 'inline' || token.children === null) continue;
    const place = placeInline(token, source);
    const found = readLinks(token.children, 0, { place, spans: notes.spans, limit });
    const more = found === undefined ? undefined : editsFor(found.links, read, budget);
    if (more === undefined) trusted = false;
    else edits.push(...more);
  }
  work.scanSteps += notes.scanSteps;
  if (!trusted) return undefined;
  edits.sort((a, b) => a.start - b.start);
  const overlapping = edits.some((edit, i) => i > 0 && edit.start < (edits[i - 1] as Edit).end);
  if (overlapping || (edits[0]?.start ?? prefix.length) < prefix.length) return undefined;
  const shifted = edits.map((edit) => ({
    ...edit,
    start: edit.start - prefix.length,
    end: edit.end - prefix.length,
  }));
  return { edits: shifted, blocks };
}

/**
 * Where defused `text` can be cut: the starts of the lines no block of `blocks` (every reading's
 * blocks of it) goes on across, each with where it was before the edits of `history`.
 */
function cutsOf(
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
  const written = history.reduceRight((positions, edits) => before(edits, positions), places);
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

/**
 * Where ascending `positions` in a text were before `edits` were made to it: a position inside
 * an edit's text was at the edit's start.
 */
function before(edits: readonly Edit[], positions: readonly number[]): number[] {
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

/** The text as written, and as markdown-it reads it: `\r\n` and `\r` as `\n`, NUL as U+FFFD. */
interface Source {
  read: string;
  /** where each line of `read` starts */
  lineStarts: number[];
  /** a position in `read` as a position in the text as written */
  toWritten: (at: number) => number;
}

function sourceOf(written: string): Source {
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
function countBelow(values: readonly number[], limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((values[middle] as number) < limit) low = middle + 1;
    else high = middle;
  }
  return low;
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
interface Link {
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
function readLinks(
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
      const alt = readLinks(token.children ?? [], base + noted.labelStart, context);
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
const showsDestination = (link: Link): boolean =>
  !link.image &&
  !link.reference &&
  link.text !== '' &&
  (link.text === link.url || link.url === `mailto:${link.text}`);

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

function applyEdits(source: string, edits: readonly Edit[], from: number, to: number): string {
  let result = '';
  let at = from;
  for (const edit of edits) {
    result += source.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return result + source.slice(at, to);
}

/** A fenced code block, whose fence is longer than any run of backticks in the text. */
export const asCodeBlock = (text: string): string => {
  const fence = codeFenceFor(text);
  return `${fence}\n${text}\n${fence}`;
};

/** A fence of backticks longer than any run of them in `text`, and at least three. */
export function codeFenceFor(text: string): string {
  const longest = (text.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0);
  return '`'.repeat(Math.max(3, longest + 1));
}
