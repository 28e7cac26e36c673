import type { Nodes, Root } from 'mdast';
import { type CompileContext, fromMarkdown, type Token } from 'mdast-util-from-markdown';

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
 * nests deeper than any reader needs (the parser slows down badly there), is shown whole as a
 * code block instead.
 */
export function defuseMarkdownLinks(markdown: string): string {
  // a batch is rendered again on every click, each time with the same previews, and parsing a
  // full markdown block takes tens of milliseconds: the texts used last are kept
  const defused = recent.get(markdown) ?? defuse(markdown);
  recent.delete(markdown);
  if (recent.size >= RECENT_KEPT) recent.delete(recent.keys().next().value as string);
  recent.set(markdown, defused);
  return defused;
}

/** Defused texts by their Markdown, least recently used first. */
const recent = new Map<string, string>();
const RECENT_KEPT = 64;

function defuse(markdown: string): string {
  // every link, image, reference and definition starts with a bracket
  if (!markdown.includes('[')) return markdown;
  // the parser skips a leading byte order mark and counts its offsets after it
  const bom = markdown.startsWith(BYTE_ORDER_MARK) ? BYTE_ORDER_MARK : '';
  const body = markdown.slice(bom.length);
  if (DEEP_NESTING.test(body) || LONG_DELIMITER_RUN.test(body)) return asCodeBlock(body);
  let text = body;
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    let rewritten = false;
    for (const reading of readingsOf(text)) {
      const edits = linkEdits(text, reading);
      if (edits.length > 0) text = applyEdits(text, edits, 0, text.length);
      rewritten ||= edits.length > 0;
    }
    if (!rewritten) return bom + text;
  }
  return asCodeBlock(body);
}

const BYTE_ORDER_MARK = '\uFEFF';

/** Each level of brackets around a link takes a pass; real text needs one, then one to check. */
const MAX_PASSES = 4;

/**
 * Shapes the parser takes far more than linear time over, each beyond any real use: a line
 * opening more than 32 block quotes and list items (a 12,000-character line of `- - - …` takes
 * tens of seconds), and more than 64 emphasis marks in a row (thousands nest as deep).
 */
const DEEP_NESTING = /^(?:[ \t]*(?:>|[-+*](?=[ \t])|\d{1,9}[.)](?=[ \t]))){33}/m;
const LONG_DELIMITER_RUN = /\*{65}|_{65}/;

/**
 * CommonMark reads `<div>` and `<b title="…">` as raw HTML, whose insides hold no links. Slack's
 * markdown block is not said to show HTML, and a renderer that takes it for text finds links
 * inside it. So text with a `<` is read both ways, and a link either reading sees is rewritten.
 * HTML as text comes first: a reference inside an HTML block then still finds its definition,
 * which the first reading escapes.
 */
function readingsOf(text: string): readonly Reading[] {
  return text.includes('<')
    ? [{ htmlAsText: true }, { htmlAsText: false }]
    : [{ htmlAsText: false }];
}

interface Reading {
  htmlAsText: boolean;
}

/** A replacement of `source.slice(start, end)` by `text`. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

interface Range {
  start: number;
  end: number;
}

interface Parsed {
  source: string;
  /** where the text between the brackets of each link and image is */
  labels: Map<unknown, Range>;
  /** reference definitions by identifier; the first definition of a label wins */
  destinations: Map<string, string>;
}

function linkEdits(source: string, { htmlAsText }: Reading): Edit[] {
  const labels = new Map<unknown, Range>();
  // mdast keeps an image's text only as `alt`, and no node spans a link's brackets: the
  // parser's labelText token says where the text between them is. Its node is the one below
  // the buffer the label is collected in.
  const labelText = function (this: CompileContext, token: Token) {
    labels.set(this.stack.at(-2), { start: token.start.offset, end: token.end.offset });
  };
  const tree = fromMarkdown(source, {
    extensions: htmlAsText ? [{ disable: { null: ['htmlFlow', 'htmlText'] } }] : [],
    mdastExtensions: [{ enter: { labelText } }],
  });
  const parsed: Parsed = { source, labels, destinations: definitionsIn(tree) };
  return editsWithin(tree, parsed);
}

const childrenOf = (node: Nodes): readonly Nodes[] => ('children' in node ? node.children : []);

/** Walks below `node` in source order; `visit` returns true to skip what is below a node. */
function walk(node: Nodes, visit: (node: Nodes) => boolean): void {
  // a loop, not recursion: emphasis can nest thousands deep
  const pending = [...childrenOf(node)].reverse();
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (!visit(next)) pending.push(...[...childrenOf(next)].reverse());
  }
}

function definitionsIn(tree: Root): Map<string, string> {
  const destinations = new Map<string, string>();
  walk(tree, (node) => {
    if (node.type === 'definition' && !destinations.has(node.identifier)) {
      destinations.set(node.identifier, node.url);
    }
    return false;
  });
  return destinations;
}

/** The edits for everything below `node`, in source order and never overlapping. */
function editsWithin(node: Nodes, parsed: Parsed): Edit[] {
  const edits: Edit[] = [];
  walk(node, (child) => {
    const edit = editFor(child, parsed);
    if (edit !== undefined) edits.push(edit);
    return edit !== undefined;
  });
  return edits;
}

function editFor(node: Nodes, parsed: Parsed): Edit | undefined {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return undefined;
  const span = { start, end };
  switch (node.type) {
    case 'definition':
      // `\[go]: https://evil` is a line of text that defines nothing
      return { start, end: start, text: '\\' };
    case 'link':
      return showsDestination(node, node.url) ? undefined : asText(node, node.url, span, parsed);
    case 'image':
      return asText(node, node.url, span, parsed);
    case 'linkReference':
    case 'imageReference':
      return asText(node, parsed.destinations.get(node.identifier) ?? '', span, parsed);
    default:
      return undefined;
  }
}

/** A link whose whole visible text is its destination (an autolink, `[https://x](https://x)`). */
function showsDestination(link: Nodes, url: string): boolean {
  let text = '';
  walk(link, (node) => {
    if ('value' in node) text += node.value;
    else if (node.type === 'image' || node.type === 'imageReference') text += node.alt ?? '';
    else if (node.type === 'break') text += '\n';
    return false;
  });
  return text !== '' && (text === url || url === `mailto:${text}`);
}

/**
 * `[text](url "title")`, `![alt][ref]` and the like as `\[text\] (url)`: the same kind of
 * characters open and close it (so emphasis around it, and the line it starts, read as before),
 * the text between the brackets is kept as written (links inside it rewritten), and the
 * destination follows, escaped so it shows exactly as it is.
 */
function asText(node: Nodes, url: string, span: Range, parsed: Parsed): Edit {
  // every link and image has a labelText token; were one missing, its text would be dropped
  // rather than kept in a link
  const label = parsed.labels.get(node) ?? { start: span.start, end: span.start };
  const inner = applyEdits(parsed.source, editsWithin(node, parsed), label.start, label.end);
  const bang = node.type === 'image' || node.type === 'imageReference' ? '!' : '';
  return { ...span, text: `${bang}\\[${inner}\\] (${escapeDestination(url)})` };
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
function asCodeBlock(text: string): string {
  const longest = (text.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}\n${text}\n${fence}`;
}
