import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeTempDir } from '../support/temp-dir.js';
import { checkMarkdownLinks, findMarkdownFiles, linksIn } from './check-markdown-links.js';
import { headingAnchors, slugOf } from './heading-slugs.js';

describe("headings' anchors, by GitHub's rule", () => {
  test('lower-case, punctuation but - and _ removed, spaces to -', () => {
    assert.equal(
      slugOf('What Slack can refuse, and what the relay does'),
      'what-slack-can-refuse-and-what-the-relay-does',
    );
    assert.equal(
      slugOf("Slack's rate limit is the real limit"),
      'slacks-rate-limit-is-the-real-limit',
    );
    assert.equal(slugOf('1c. next batch → posted'), '1c-next-batch--posted');
    assert.equal(slugOf('snake_case and kebab-case (v2.1)'), 'snake_case-and-kebab-case-v21');
    assert.equal(slugOf('Über die Größe'), 'über-die-größe');
  });

  test('inline code and emphasis count as their text, a repeated heading gets -1, -2', () => {
    const markdown = [
      "# Asking an agent's open questions: `ask`",
      '## The `ask` envelope',
      '## *Emphasis* and **strong** and [a link](x.md)',
      '## Usage',
      'Usage',
      '-----',
      '## Usage',
      '## Usage 1',
      '```md',
      '## Not a heading, in a code block',
      '```',
    ].join('\n');
    assert.deepEqual(headingAnchors(markdown), [
      'asking-an-agents-open-questions-ask',
      'the-ask-envelope',
      'emphasis-and-strong-and-a-link',
      'usage',
      'usage-1',
      'usage-2',
      'usage-1-1',
    ]);
  });
});

describe('the link check', () => {
  let root = '';
  let cleanup = async () => {};

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir('o7-links-'));
    await mkdir(path.join(root, 'docs'));
    await mkdir(path.join(root, 'node_modules/dep'), { recursive: true });
    await writeFile(path.join(root, 'node_modules/dep/README.md'), '[gone](nowhere.md)\n');
    await writeFile(path.join(root, 'picture.png'), '');
    await writeFile(
      path.join(root, 'README.md'),
      [
        '# Top',
        '',
        'Fine: [a doc](docs/guide.md), [its part](docs/guide.md#the-part),',
        '[here](#top), [a folder](docs/), [a picture](picture.png), [site](https://x.example/a#b),',
        '[mail](mailto:a@x.example), [a line of code](picture.png#L3), [encoded](docs/guide.md#über), [the second](docs/guide.md#the-part-1).',
        '',
        'Broken: [no file](docs/missing.md) and [no heading](docs/guide.md#no-such-part).',
        '',
        '| table | [no anchor here](#bottom) |',
        '|---|---|',
        '',
        '[by reference][ref], ![no picture](gone.png), [outside](../elsewhere.md)',
        '',
        '`[in a code span](gone.md)`',
        '',
        '    [in a code block](gone.md)',
        '',
        '[ref]: docs/guide.md#nor-this',
      ].join('\n'),
    );
    await writeFile(
      path.join(root, 'docs/guide.md'),
      '# Guide\n\n## The part\n\n## The part\n\n## Über\n\n[back](../README.md#top)\n',
    );
  });

  after(() => cleanup());

  test('finds the Markdown files, not those of dependencies', () => {
    assert.deepEqual(findMarkdownFiles(root), ['README.md', 'docs/guide.md']);
  });

  test('reads links as CommonMark does: references resolved, code left out, lines counted', () => {
    const links = linksIn('one\n[a](x.md) and\n[b][r]\n\n`[c](y.md)`\n\n[r]: z.md#q\n');
    assert.deepEqual(links, [
      { href: 'x.md', line: 2 },
      { href: 'z.md#q', line: 3 },
    ]);
  });

  test('names each link that leads to no file, outside, or to a heading that is not there', () => {
    const broken = checkMarkdownLinks(root, findMarkdownFiles(root));
    assert.deepEqual(
      broken.map(({ file, line, href }) => `${file}:${line} ${href}`),
      [
        'README.md:7 docs/missing.md',
        'README.md:7 docs/guide.md#no-such-part',
        'README.md:9 #bottom',
        'README.md:12 docs/guide.md#nor-this',
        'README.md:12 gone.png',
        'README.md:12 ../elsewhere.md',
      ],
    );
    assert.equal(broken[0]?.problem, 'no such file: docs/missing.md');
    assert.equal(
      broken[1]?.problem,
      'docs/guide.md has no heading whose anchor is #no-such-part; its anchors: guide, the-part, the-part-1, über',
    );
    assert.equal(
      broken[2]?.problem,
      'README.md has no heading whose anchor is #bottom; its anchors: top',
    );
    assert.match(broken[5]?.problem ?? '', /^leads outside the repository/);
  });
});
