import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { REPO } from '../support/project-paths.js';
import { checkMarkdownLinks, findMarkdownFiles, linksIn } from './check-markdown-links.js';

const files = findMarkdownFiles(REPO);
const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');

describe("the repository's Markdown", () => {
  test('every relative link points at a file that exists, and every anchor at a heading', () => {
    for (const file of ['README.md', 'ARCHITECTURE.md', 'bench/RESULTS.md', 'docs/service.md']) {
      assert.ok(files.includes(file), `${file} is among the files checked`);
    }
    const broken = checkMarkdownLinks(REPO, files).map(
      ({ file, line, href, problem }) => `${file}:${line}: (${href}) ${problem}`,
    );
    assert.deepEqual(broken, [], `broken links:\n${broken.join('\n')}`);
  });

  test('the README links every doc, ARCHITECTURE.md and bench/RESULTS.md', () => {
    const linked = new Set(linksIn(readme).map(({ href }) => href.split('#')[0]));
    const docs = files.filter((f) => f.startsWith('docs/'));
    assert.ok(docs.length > 0, 'there are docs');
    for (const file of [...docs, 'ARCHITECTURE.md', 'bench/RESULTS.md']) {
      assert.ok(linked.has(file), `the README links ${file} (under "Where to read on")`);
    }
  });

  test('the README stays short: at most 200 lines', () => {
    const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
    assert.ok(lines <= 200, `README.md has ${lines} lines; move the detail into docs/`);
  });
});
