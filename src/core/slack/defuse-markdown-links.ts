/**
 * Agent-written Markdown must not show a link whose text hides where it goes
 * (`[Approve](https://evil)` would read "Approve"). Inline links and images become
 * `text (url)`, so the destination is always visible, and reference definitions
 * (`[ref]: url`) are escaped so `[text][ref]` stays literal text.
 *
 * Code is left as written: fenced blocks (``` or ~~~) and code spans are copied unchanged,
 * because Slack shows them literally and rewriting them would corrupt code samples.
 */
export function defuseMarkdownLinks(markdown: string): string {
  const out: string[] = [];
  let prose: string[] = [];
  let fence: string | undefined;
  const flush = () => {
    if (prose.length > 0) out.push(defuseProse(prose.join('\n')));
    prose = [];
  };
  for (const line of markdown.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (fence === undefined) {
      if (marker === undefined) {
        prose.push(line);
        continue;
      }
      flush();
      fence = marker;
    } else if (
      marker !== undefined &&
      marker[0] === fence[0] &&
      marker.length >= fence.length &&
      line.trim() === marker
    ) {
      fence = undefined;
    }
    out.push(line);
  }
  flush();
  return out.join('\n');
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** A code span: a run of backticks, anything, and a run of the same length. */
const CODE_SPAN = /(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g;

/** `[text](url)` or `![alt](url)`, url plain (one level of parentheses) or `<…>`, optional title. */
const INLINE_LINK =
  /(?<!\\)!?\[([^[\]]*)\]\(\s*(<[^<>\n]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:"[^"]*"|'[^']*'|\([^()]*\)))?\s*\)/g;

/** `[ref]: url` at the start of a line defines a link target for `[text][ref]`. */
const REFERENCE_DEFINITION = /^( {0,3})\[(?=[^\]\n]+\]:)/gm;

function defuseProse(text: string): string {
  let result = '';
  let at = 0;
  for (const span of text.matchAll(CODE_SPAN)) {
    result += defuseLinks(text.slice(at, span.index)) + span[0];
    at = span.index + span[0].length;
  }
  return result + defuseLinks(text.slice(at));
}

function defuseLinks(text: string): string {
  let current = text;
  // nested links (a badge image inside a link) unwrap from the inside out; each pass removes
  // brackets, so this ends
  for (;;) {
    const next = current.replace(INLINE_LINK, (_all, label: string, url: string) => {
      const target = url.startsWith('<') ? url.slice(1, -1) : url;
      return label === '' ? `(${target})` : `${label} (${target})`;
    });
    if (next === current) break;
    current = next;
  }
  return current.replace(REFERENCE_DEFINITION, '$1\\[');
}
