// Markdown written to make a parser slow: the shapes CommonMark implementations have been
// quadratic on (cmark's and markdown-it's pathological tests), and the shapes that make link
// defusing parse most often (links in brackets, raw HTML, reference links). Each is repeated to
// the length asked for, so the bench and the work-bound tests try the same texts.

/** `unit` repeated to about `length` characters, then `tail`. */
const repeated = (unit: string, length: number, tail = ''): string =>
  unit.repeat(Math.max(1, Math.floor((length - tail.length) / unit.length))) + tail;

/** `open` repeated, `middle`, then `close` as often as `open`: about `length` characters. */
const nested = (open: string, middle: string, close: string, length: number): string => {
  const times = Math.max(1, Math.floor((length - middle.length) / (open.length + close.length)));
  return open.repeat(times) + middle + close.repeat(times);
};

/** A link inside `depth` pairs of brackets that become links one by one as each is defused. */
const bracketed = (depth: number): string =>
  `${'['.repeat(depth)}[a](https://evil.example)${'](https://b.example)'.repeat(depth)} `;

/** Hostile shapes by name, each about `length` characters long. */
export function hostileMarkdown(length: number): Record<string, string> {
  return {
    'nested strong emphasis': nested('*a **a ', 'b', ' a** a*', length),
    'emphasis closers without openers': repeated('a_ ', length),
    'mismatched emphasis': repeated('*a_ ', length),
    'emphasis runs around links': repeated(`${'*'.repeat(60)}[a](b)${'*'.repeat(60)}\n`, length),
    'emphasis and links': repeated('*a* [b](c) _d_ ', length),
    'link openers without closers': repeated('[a', length),
    'link closers without openers': repeated('a]', length),
    'link openers and emphasis closers': repeated('[ a_', length),
    'brackets and parentheses': repeated('[ (](', length),
    'nested brackets': nested('[', 'a', ']', length),
    'nested brackets around a link': nested('[', '[a](b)', '](c)', length),
    'links in brackets, three deep': repeated(bracketed(3), length),
    'links in brackets, three deep, in HTML': repeated(
      `<div>\n\n${bracketed(3)}\n</div>\n`,
      length,
    ),
    'image openers': repeated('![', length),
    'nested images': nested('![', 'a', '](b)', length),
    'nested images without destinations': nested('![', 'a', ']', length),
    'image chains': repeated(`${nested('![', 'a', '](b)', 120)} `, length),
    'unclosed destinations': repeated('[a](<b', length),
    'unclosed parentheses': repeated('[a](b', length),
    'nested parentheses': repeated('[a](((', length),
    'labels with code spans': repeated('[`a]`', length),
    'backtick runs': Array.from({ length: 200 }, (_, i) => `e${'`'.repeat(i)}`)
      .join('')
      .slice(0, length),
    'reference links': `[r]: /u\n\n${repeated('[a][r] ', length - 10)}`,
    'reference labels in brackets': `[r]: /u\n\n${repeated('[[r]', length - 10)}`,
    'reference definitions': repeated('[r]: /u\n', length),
    'definitions in quotes': repeated('> [r]: /u "t"\n> [a][r]\n', length),
    'one line of list markers': repeated('- ', length, '[a](b)'),
    'one line of quote markers': repeated('>', length, ' [a](b)'),
    'deep nested lists': Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i)}- [a](b)\n`)
      .join('')
      .slice(0, length),
    'lazy quote lines': repeated('> [a](b)\nc\n', length),
    'setext headings': repeated('a\n=\n[a](b)\n', length),
    'list items with links': repeated('- [a](b)\n', length),
    'HTML comments left open': `</${repeated('<!--', length)}`,
    'HTML tags with links': repeated('<b title="[a](b)">[c](d)</b> ', length),
    'autolinks and tags': repeated('<https://x.example> <span>[a](b)</span> ', length),
    'tabs and markers': repeated('\t- \t>\t[a](b)', length),
    'Windows line endings': repeated('- [a](b)\r\n', length),
  };
}
