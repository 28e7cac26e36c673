import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import markdownit, { type Token } from 'markdown-it';
import { headingAnchors } from './heading-slugs.js';

const md = markdownit();

/** A link that leads nowhere: the file and line it is on, what it says, and what is wrong. */
export interface BrokenLink {
  file: string;
  line: number;
  href: string;
  problem: string;
}

/** Folders that hold no Markdown of the project's own: dependencies, builds, git, run state. */
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.7']);

/** Every Markdown file under `root`, as `/`-separated paths from it, sorted. */
export function findMarkdownFiles(root: string, under = ''): string[] {
  return readdirSync(path.join(root, under), { withFileTypes: true })
    .flatMap((entry) => {
      const file = under === '' ? entry.name : `${under}/${entry.name}`;
      if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : findMarkdownFiles(root, file);
      return entry.isFile() && entry.name.toLowerCase().endsWith('.md') ? [file] : [];
    })
    .sort();
}

/**
 * Every link and image destination in a Markdown text with its line (from 1), as a CommonMark
 * parser sees them: reference links resolved, nothing taken from code spans or code blocks.
 */
export function linksIn(markdown: string): { href: string; line: number }[] {
  const links: { href: string; line: number }[] = [];
  let blockLine = 1; // a table cell's text has no line of its own: its row's is used
  for (const block of md.parse(markdown, {})) {
    if (block.map) blockLine = block.map[0] + 1;
    let line = blockLine;
    for (const token of block.children ?? []) {
      if (token.type === 'softbreak' || token.type === 'hardbreak') line += 1;
      const href = destination(token);
      if (href !== undefined) links.push({ href, line });
    }
  }
  return links;
}

function destination(token: Token): string | undefined {
  if (token.type === 'link_open') return token.attrGet('href') ?? undefined;
  if (token.type === 'image') return token.attrGet('src') ?? undefined;
  return undefined;
}

/** A link to another site (`https:`, `mailto:`, `//host`), which this check does not follow. */
const isExternal = (href: string) => /^[a-z][a-z\d+.-]*:/i.test(href) || href.startsWith('//');

/**
 * The relative links of `files` (paths from `root`) that point at no file, outside the
 * repository, or at a heading a Markdown file does not have (GitHub's anchors). Anchors into
 * other kinds of file (`#L10` of a source file) are left alone.
 */
export function checkMarkdownLinks(root: string, files: readonly string[]): BrokenLink[] {
  const anchorsOf = new Map<string, string[]>();
  const anchors = (file: string) => {
    let found = anchorsOf.get(file);
    if (found === undefined) {
      found = headingAnchors(readFileSync(path.join(root, file), 'utf8'));
      anchorsOf.set(file, found);
    }
    return found;
  };
  const broken: BrokenLink[] = [];
  for (const file of files) {
    for (const { href, line } of linksIn(readFileSync(path.join(root, file), 'utf8'))) {
      if (isExternal(href)) continue;
      const problem = problemWith(root, file, href, anchors);
      if (problem !== undefined) broken.push({ file, line, href, problem });
    }
  }
  return broken;
}

function problemWith(
  root: string,
  file: string,
  href: string,
  anchors: (file: string) => string[],
): string | undefined {
  const [beforeHash = '', ...afterHash] = href.split('#');
  let target: string;
  let anchor: string | undefined;
  try {
    const linked = decodeURIComponent(beforeHash.split('?')[0] ?? '');
    anchor = afterHash.length > 0 ? decodeURIComponent(afterHash.join('#')) : undefined;
    target = linked.startsWith('/')
      ? path.posix.normalize(linked.slice(1))
      : path.posix.join(path.posix.dirname(file), linked || path.posix.basename(file));
  } catch {
    return 'not a valid URL: a % that starts no escape';
  }
  if (target === '..' || target.startsWith('../')) {
    return `leads outside the repository (to ${target}); link to a file inside it`;
  }
  if (!existsSync(path.join(root, target))) return `no such file: ${target}`;
  if (anchor === undefined || anchor === '' || !target.toLowerCase().endsWith('.md')) return;
  if (!statSync(path.join(root, target)).isFile()) return;
  const known = anchors(target);
  if (known.includes(anchor)) return;
  return `${target} has no heading whose anchor is #${anchor}; its anchors: ${known.join(', ')}`;
}
