// Link shapes for the link-defusing tests: every way CommonMark writes a link, image, autolink
// or reference definition, combined with the places a link can stand, each with the Markdown a
// reader should see once its links are defused. And the check those tests apply to any text:
// which links in it hide where they go.
import markdownit, { type MarkdownIt, type Options, type Token } from 'markdown-it';

/** How CommonMark reads a text: with raw HTML as HTML (the standard), or as plain text. */
export const READINGS = ['html', 'html-as-text'] as const;
export type Reading = (typeof READINGS)[number];

/**
 * A CommonMark reader (markdown-it) of its own, apart from the defuser's: it shows
 * destinations as written, and follows nesting far deeper than the defuser's reader does
 * (`maxNesting`, left out of markdown-it's types), so that text the defuser stops reading is
 * still checked.
 */
function createReader(reading: Reading): MarkdownIt {
  const md = markdownit('commonmark', { maxNesting: 1000 } as Options);
  if (reading === 'html-as-text') md.disable(['html_block', 'html_inline']);
  md.normalizeLink = (url) => url;
  md.normalizeLinkText = (text) => text;
  md.validateLink = () => true;
  return md;
}

const READERS = { html: createReader('html'), 'html-as-text': createReader('html-as-text') };

/** The tokens CommonMark reads from `markdown`, and the labels of its reference definitions. */
export function parseMarkdown(
  markdown: string,
  reading: Reading = 'html',
): { tokens: Token[]; definitions: string[] } {
  const env: { references?: Record<string, unknown> } = {};
  const tokens = READERS[reading].parse(markdown, env);
  return { tokens, definitions: Object.keys(env.references ?? {}) };
}

/** `markdown` as HTML: two texts read the same when their HTML is the same. */
export const renderMarkdown = (markdown: string, reading: Reading = 'html'): string =>
  READERS[reading].render(markdown);

/** What a reader sees of inline tokens: text, code, raw HTML, image alt text, line breaks. */
export function visibleText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      if (token.type === 'image') return visibleText(token.children ?? []);
      if (token.type === 'softbreak' || token.type === 'hardbreak') return '\n';
      return ['text', 'text_special', 'code_inline', 'html_inline'].includes(token.type)
        ? token.content
        : '';
    })
    .join('');
}

/** What hides a link among inline tokens (and inside images), described. */
function hidingIn(tokens: readonly Token[], at: string): string[] {
  return tokens.flatMap((token, index) => {
    if (token.type === 'image') {
      return [`${at}: an image of ${token.attrGet('src')}`, ...hidingIn(token.children ?? [], at)];
    }
    if (token.type !== 'link_open') return [];
    const url = String(token.attrGet('href'));
    const close = tokens.findIndex((t, i) => i > index && t.type === 'link_close');
    const text = visibleText(tokens.slice(index + 1, close));
    const shows = text !== '' && (text === url || url === `mailto:${text}`);
    return shows ? [] : [`${at}: ${JSON.stringify(text)} goes to ${url}`];
  });
}

/**
 * Everything in `markdown` that could hide where a link goes, under either reading, described.
 * Defused Markdown has none: no image, no reference definition (so no reference link), and every
 * link's visible text is exactly its destination, or for an e-mail autolink the destination
 * without `mailto:`; a link with no visible text counts as hiding. Some readers skip a leading
 * byte order mark and others read it as text: text that starts with one is checked both ways.
 */
export function hiddenLinks(markdown: string): string[] {
  const texts = markdown.startsWith('\uFEFF') ? [markdown, markdown.slice(1)] : [markdown];
  return texts.flatMap((text) =>
    READINGS.flatMap((reading) => {
      const read = `${reading}${text === markdown ? '' : ' without the byte order mark'}`;
      const { tokens, definitions } = parseMarkdown(text, reading);
      return [
        ...definitions.map((label) => `${read}: a reference definition of ${label}`),
        ...tokens.flatMap((block) =>
          hidingIn(block.children ?? [], `${read}: line ${(block.map?.[0] ?? -1) + 1}`),
        ),
      ];
    }),
  );
}

/** Text that reads as itself in Markdown: every ASCII punctuation mark backslash-escaped. */
export const literal = (text: string): string =>
  text.replace(/[!-/:-@[-`{-~]/g, (mark) => `\\${mark}`);

// ----- the parts of a link -----

interface Destination {
  /** as written in an inline link or a definition */
  written: string;
  /** the destination CommonMark reads from it */
  url: string;
}

const DESTINATIONS: readonly Destination[] = [
  { written: 'https://evil.example/x', url: 'https://evil.example/x' },
  { written: '<https://evil.example/a b>', url: 'https://evil.example/a b' },
  { written: '<https://evil.example/a)b>', url: 'https://evil.example/a)b' },
  {
    written: 'https://evil.example/w/Foo_(bar_(baz))',
    url: 'https://evil.example/w/Foo_(bar_(baz))',
  },
  { written: 'https://evil.example/p\\(q', url: 'https://evil.example/p(q' },
  {
    written: 'https://evil.example/?a=1&amp;b=2&#x5B;3&#93;',
    url: 'https://evil.example/?a=1&b=2[3]',
  },
  { written: 'https://evil.example/*not*_em_', url: 'https://evil.example/*not*_em_' },
  { written: 'https://evil.example/\\*\\_\\\\', url: 'https://evil.example/*_\\' },
  { written: 'mailto:someone@evil.example', url: 'mailto:someone@evil.example' },
  { written: 'javascript:alert(1)', url: 'javascript:alert(1)' },
  { written: '/relative/path?x=<y>', url: '/relative/path?x=<y>' },
  { written: '<>', url: '' },
];

/**
 * Titles never show, so none is kept; each is written differently. `multiline` ones span a
 * line break. A definition escaped into text shows its title, with any links in it defused.
 */
const TITLES: readonly Title[] = [
  { written: '', multiline: false },
  { written: ' "a title"', multiline: false },
  { written: " 'it\\'s [x](y)'", multiline: false, inText: " 'it\\'s \\[x\\] (y)'" },
  { written: ' (paren \\(title\\))', multiline: false },
  { written: '\n"on the next\nline"', multiline: true },
];

interface Title {
  written: string;
  multiline: boolean;
  /** as a defused definition shows it, when that differs */
  inText?: string;
}

interface Label {
  /** as written between the brackets */
  written: string;
  /** Markdown reading as the defused text between the (then escaped) brackets */
  shown: string;
  /** whether it may also name a reference (no brackets in it, not blank) */
  asReference: boolean;
}

const LABELS: readonly Label[] = [
  { written: 'Approve', shown: 'Approve', asReference: true },
  { written: 'https://good.example', shown: 'https://good.example', asReference: true },
  { written: '`code ] [x](y)`', shown: '`code ] [x](y)`', asReference: false },
  { written: 'a \\] b \\[ c', shown: 'a \\] b \\[ c', asReference: true },
  { written: 'a [balanced] b', shown: 'a [balanced] b', asReference: false },
  { written: '*em* and **strong**', shown: '*em* and **strong**', asReference: true },
  { written: '&amp; &#91;x&#93;', shown: '&amp; &#91;x&#93;', asReference: true },
  { written: 'a\\*b\\_c', shown: 'a\\*b\\_c', asReference: true },
  { written: 'Ünïcode ẞtraße', shown: 'Ünïcode ẞtraße', asReference: true },
  { written: '', shown: '', asReference: false },
  { written: '<https://good.example>', shown: '<https://good.example>', asReference: false },
  {
    written: '![badge](https://img.example/b.svg)',
    shown: `!\\[badge\\] (${literal('https://img.example/b.svg')})`,
    asReference: false,
  },
  { written: 'a <span>b</span> c', shown: 'a <span>b</span> c', asReference: true },
];

/** A reference label written differently from the link's, that CommonMark matches to it. */
function caseFolded(label: string): string {
  const swapped = [...label]
    .map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()))
    .join('')
    .replace(/ /g, '  \t');
  // Unicode case folding: ẞ and ss name the same label
  return swapped.replace(/ß/g, 'SS');
}

// ----- link forms -----

interface Form {
  name: string;
  image: boolean;
  /** the link as written, and the reference definition it needs (or '') */
  write: (
    label: Label,
    destination: Destination,
    title: string,
  ) => { link: string; definition: string };
  /** labels it takes */
  takes: (label: Label) => boolean;
}

const REF = 'The Ref';

const inline = (image: boolean): Form => ({
  name: image ? 'inline image' : 'inline link',
  image,
  write: (label, destination, title) => ({
    link: `${image ? '!' : ''}[${label.written}](${destination.written}${title})`,
    definition: '',
  }),
  // an image's text is only alt text: nothing in it can be a link of its own
  takes: (label) => !(image && label.written.startsWith('<https')),
});

const full = (image: boolean): Form => ({
  name: image ? 'full reference image' : 'full reference link',
  image,
  write: (label, destination, title) => ({
    link: `${image ? '!' : ''}[${label.written}][${caseFolded(REF)}]`,
    definition: `[${REF}]: ${destination.written}${title}`,
  }),
  takes: (label) => !(image && label.written.startsWith('<https')),
});

const collapsed = (image: boolean): Form => ({
  name: image ? 'collapsed reference image' : 'collapsed reference link',
  image,
  write: (label, destination, title) => ({
    link: `${image ? '!' : ''}[${label.written}][]`,
    definition: `[${caseFolded(label.written)}]: ${destination.written}${title}`,
  }),
  takes: (label) => label.asReference,
});

const shortcut = (image: boolean): Form => ({
  name: image ? 'shortcut reference image' : 'shortcut reference link',
  image,
  write: (label, destination, title) => ({
    link: `${image ? '!' : ''}[${label.written}]`,
    definition: `[${caseFolded(label.written)}]: ${destination.written}${title}`,
  }),
  takes: (label) => label.asReference,
});

const FORMS: readonly Form[] = [true, false].flatMap((image) => [
  inline(image),
  full(image),
  collapsed(image),
  shortcut(image),
]);

// ----- where a link stands -----

interface Frame {
  name: string;
  place: (link: string) => string;
  /** whether a link spanning lines keeps its place (not in a table row or a heading line) */
  multiline: boolean;
  /** whether the link is inside raw HTML, where only the reading of HTML as text sees it */
  inHtml?: boolean;
}

const FRAMES: readonly Frame[] = [
  { name: 'alone', place: (x) => x, multiline: true },
  { name: 'in a sentence', place: (x) => `Before ${x} after.`, multiline: true },
  { name: 'in emphasis', place: (x) => `*${x}*`, multiline: true },
  { name: 'in strong emphasis', place: (x) => `**${x}** tail`, multiline: true },
  { name: 'in underscores', place: (x) => `_a ${x} b_`, multiline: true },
  { name: 'in a list', place: (x) => `- item ${x}\n- next`, multiline: true },
  { name: 'in an ordered list', place: (x) => `1. ${x}\n2. two`, multiline: true },
  { name: 'in a block quote', place: (x) => `> quote ${x}\n> more`, multiline: true },
  { name: 'in a quote in a list', place: (x) => `- > ${x}`, multiline: true },
  { name: 'in a list in a quote', place: (x) => `> 1) ${x}`, multiline: true },
  { name: 'in a table', place: (x) => `| a | b |\n|---|---|\n| ${x} | 2 |`, multiline: false },
  { name: 'in a heading', place: (x) => `## ${x} ##`, multiline: false },
  { name: 'in a setext heading', place: (x) => `Title ${x}\n=====`, multiline: true },
  { name: 'between code spans', place: (x) => `\`a\` ${x} \`\`b\`\``, multiline: true },
  { name: 'in literal brackets', place: (x) => `[${x}]`, multiline: true },
  { name: 'after a hard break', place: (x) => `line\\\n${x}`, multiline: true },
  { name: 'in inline HTML', place: (x) => `<span title="t">${x}</span>`, multiline: true },
  { name: 'in an HTML block', place: (x) => `<div>\n${x}\n</div>`, multiline: true, inHtml: true },
  {
    name: 'after a fence with an odd info string',
    place: (x) => `\`\`\`js [a](https://x.example) {title="]("}\n[b](c)\n\`\`\`\n${x}`,
    multiline: true,
  },
  {
    name: 'before a tilde fence with backticks in its info string',
    place: (x) => `${x}\n\n~~~ \`[a](https://x.example)\` \`\`\`\n[b](c)\n\`\`\`\n~~~`,
    multiline: true,
  },
  {
    name: 'after indented code',
    place: (x) => `    [a](https://x.example)\n\n${x}`,
    multiline: true,
  },
];

/** Where a link's reference definition is written: at the end, or inside a container. */
const DEFINITION_PLACES: readonly ((definition: string) => string)[] = [
  (d) => `\n\n${d}`,
  (d) => `\n\n> ${d.replace(/\n/g, '\n> ')}`,
  (d) => `\n\n- ${d.replace(/\n/g, '\n  ')}`,
];

/** One generated text: what is written, and Markdown that reads as what should be shown. */
export interface LinkCase {
  name: string;
  markdown: string;
  expected: string;
  /** the readings under which the defused text and `expected` read the same */
  readings: readonly Reading[];
}

function linkCase(
  form: Form,
  label: Label,
  destination: Destination,
  title: Title,
  frame: Frame,
  definitionPlace: (definition: string) => string,
  insideLink: boolean,
): LinkCase {
  const { link, definition } = form.write(label, destination, title.written);
  const shownDefinition = form.write(label, destination, title.inText ?? title.written).definition;
  const shown = `${form.image ? '!' : ''}\\[${label.shown}\\] (${literal(destination.url)})`;
  // in another link's brackets: that link can only be a link once this one is text
  const outer = (x: string, shownInner: boolean) =>
    insideLink
      ? shownInner
        ? `\\[${x}\\] (${literal('https://outer.example')})`
        : `[${x}](https://outer.example)`
      : x;
  const markdown =
    frame.place(outer(link, false)) + (definition === '' ? '' : definitionPlace(definition));
  const expected =
    frame.place(outer(shown, true)) +
    (definition === '' ? '' : definitionPlace(`\\${shownDefinition}`));
  const name = [
    form.name,
    `label ${JSON.stringify(label.written)}`,
    `to ${JSON.stringify(destination.written)}`,
    title.written === '' ? 'no title' : 'a title',
    frame.name,
    insideLink ? 'inside another link' : '',
  ]
    .filter((part) => part !== '')
    .join(', ');
  // raw HTML keeps its backslashes, so only the reading of it as text sees them as escapes
  return { name, markdown, expected, readings: frame.inHtml ? ['html-as-text'] : READINGS };
}

/**
 * Every form with every label it takes and every destination, each combination in one of the
 * frames, titles and definition places in turn; then every form in every frame.
 */
export function linkCases(): LinkCase[] {
  const cases: LinkCase[] = [];
  let turn = 0;
  for (const form of FORMS) {
    for (const label of LABELS.filter(form.takes)) {
      for (const destination of DESTINATIONS) {
        const frame = FRAMES[turn % FRAMES.length] as Frame;
        const titles = TITLES.filter((t) => frame.multiline || !t.multiline);
        const title = titles[turn % titles.length] as Title;
        const place = DEFINITION_PLACES[turn % DEFINITION_PLACES.length] as (d: string) => string;
        cases.push(linkCase(form, label, destination, title, frame, place, turn % 7 === 0));
        turn += 1;
      }
    }
  }
  for (const form of FORMS) {
    for (const frame of FRAMES) {
      for (const insideLink of [false, true]) {
        const title = TITLES[1] as Title;
        const place = DEFINITION_PLACES[0] as (d: string) => string;
        cases.push(
          linkCase(
            form,
            LABELS[0] as Label,
            DESTINATIONS[0] as Destination,
            title,
            frame,
            place,
            insideLink,
          ),
        );
      }
    }
  }
  // the second round repeats a few of the first
  return [...new Map(cases.map((c) => [c.markdown, c])).values()];
}

/**
 * Texts that hide no link, only hold things that look like one: code spans, fences with odd
 * info strings, indented code, escapes, entities, undefined references, autolinks.
 */
export const TEXTS_HIDING_NO_LINK: readonly string[] = [
  '',
  'plain words',
  'a [bracket] and (paren) and [x] (y)',
  'Use `[a](https://x.example)` literally, or ``x [c](d) y``.',
  '```md\n[e](f)\n```',
  '~~~\n[g](h)\n~~~',
  '```js [a](https://x.example) {title="]("}\n[b](c)\n```',
  '~~~ `odd` [a](b) ```\n[c](d)\n```\n~~~\nafter',
  '````\n```\n[a](b)\n```\n````',
  '   ```\n[a](b)\n   ```',
  '```\nunclosed [a](b)',
  '~~~\n[a](b)\n```\n[c](d)\n~~~',
  '```\n[a](b)\n``` not a closing fence\n[c](d)',
  '    [indented](code)\n    [x]: https://x.example',
  '\\[a](https://x.example) and \\!\\[b](c) and [d\\](e)',
  '&#91;a&#93;(https://x.example) and &lbrack;b](c)',
  '[undefined][ref] and [also undefined] and ![nope][]',
  '[^1] looks like a footnote',
  '<https://plain.example/autolink> and <someone@mail.example>',
  '<!-- a comment --> and <span>text</span>',
  '| a | b |\n|---|---|\n| `[x](y)` | 2 |',
  '> quote with `[a](b)`\n> - and a list',
  '# heading\n\nSetext\n---',
  '[a] (https://x.example) has a space',
  '[a]\n(https://x.example) breaks a line',
];

/** Deterministic pseudo-random numbers (mulberry32), so every run tries the same texts. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES: readonly string[] = [
  '[',
  ']',
  '(',
  ')',
  '![',
  '](',
  '<',
  '>',
  '`',
  '``',
  '\\',
  '*',
  '_',
  '\n',
  '\n\n',
  '> ',
  '- ',
  '1. ',
  '```',
  '~~~',
  '    ',
  ': ',
  '"',
  "'",
  '&amp;',
  '&#93;',
  'https://evil.example/x',
  'text',
  ' ',
  '[a](https://evil.example/y)',
  '[r]: /u',
  '[R]',
  '<div>',
  '</div>',
  '<a href="h">',
  '|',
  '#',
  'mailto:m@x.example',
  '<https://x.example>',
  '![i](j)',
  '[x][r]',
  '[]',
];

/** `count` texts stitched from link syntax at random: shapes nobody thought to write down. */
export function stitchedTexts(count: number, seed = 11): string[] {
  const next = seeded(seed);
  return Array.from({ length: count }, () => {
    const length = 1 + Math.floor(next() * 24);
    return Array.from({ length }, () => PIECES[Math.floor(next() * PIECES.length)]).join('');
  });
}
