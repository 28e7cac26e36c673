import markdownit, { type Token } from 'markdown-it';

const md = markdownit();

/**
 * A heading's anchor as GitHub makes it: lower-case, every character that is not a letter, a
 * mark, a digit, `_`-like connector, `-` or a space removed, then each space a `-`. So
 * "The `ask` envelope" is `the-ask-envelope` and "1c. next → posted" is `1c-next--posted`.
 */
export function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The text a heading shows: inline code and emphasis reduced to their text, HTML dropped. */
function headingText(inline: Token | undefined): string {
  return (inline?.children ?? [])
    .map((child) => {
      if (child.type === 'text' || child.type === 'code_inline') return child.content;
      if (child.type === 'softbreak' || child.type === 'hardbreak') return ' ';
      return '';
    })
    .join('')
    .trim();
}

/**
 * Every anchor the headings of a Markdown text give, in order, as GitHub numbers them: a slug
 * seen before gets `-1`, `-2`, … (skipping any a heading already has), so links to a repeated
 * heading resolve as they do on GitHub.
 */
export function headingAnchors(markdown: string): string[] {
  const tokens = md.parse(markdown, {});
  const seen = new Map<string, number>();
  const anchors: string[] = [];
  tokens.forEach((token, at) => {
    if (token.type !== 'heading_open') return;
    const base = slugOf(headingText(tokens[at + 1]));
    let anchor = base;
    while (seen.has(anchor)) {
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      anchor = `${base}-${count}`;
    }
    seen.set(anchor, 0);
    anchors.push(anchor);
  });
  return anchors;
}
