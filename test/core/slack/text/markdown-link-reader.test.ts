// The link reader reaches into markdown-it where its API stops: it wraps the rules kept in
// `__rules__`, calls `helpers.parseLinkLabel` from inside them, replaces `inline.skipToken`, and
// reads positions off the parser's states. These tests use exactly that, so a markdown-it that
// changes any of it fails here by name, not as links that quietly stop being defused.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, test } from 'node:test';
import markdownit from 'markdown-it';
import {
  type Reading,
  readingsOf,
  readLinks,
} from '../../../../src/core/slack/text/markdown-link-reader.js';
import { REPO } from '../../../support/project-paths.js';

/** The reader used for text without HTML or a byte order mark. */
const { reader } = readingsOf('plain', '')[0] as Reading;

describe('the markdown link reader', () => {
  test('markdown-it is pinned to the minor version whose private rule lists it was written against', () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    const pin = /^~(\d+)\.(\d+)\.(\d+)$/.exec(pkg.dependencies['markdown-it']);
    assert.ok(pin, `package.json pins markdown-it with ~, not ${pkg.dependencies['markdown-it']}`);
    const installed = createRequire(path.join(REPO, 'package.json'))(
      'markdown-it/package.json',
    ).version;
    const [major, minor, patch] = installed.split('.').map(Number);
    assert.deepEqual([major, minor], [Number(pin[1]), Number(pin[2])], `installed ${installed}`);
    assert.ok(patch >= Number(pin[3]), `installed ${installed}`);
  });

  test('markdown-it keeps the rules the reader wraps in __rules__, each with its function and alternatives', () => {
    const md = markdownit('commonmark');
    const rules = (ruler: unknown) =>
      (ruler as { __rules__: { name: string; fn: unknown; alt: unknown }[] }).__rules__;
    for (const [ruler, name] of [
      [md.inline.ruler, 'link'],
      [md.inline.ruler, 'image'],
      [md.block.ruler, 'reference'],
    ] as const) {
      const rule = rules(ruler).find((entry) => entry.name === name);
      assert.ok(rule, `${name} is in __rules__`);
      assert.equal(typeof rule.fn, 'function', name);
      assert.ok(Array.isArray(rule.alt), name);
    }
    assert.equal(typeof md.helpers.parseLinkLabel, 'function');
    assert.equal(typeof md.inline.skipToken, 'function');
  });

  test('places links, images, reference links and definitions in the text as written', () => {
    // a container mark, CRLF line ends, a title, emphasis in an image's text
    const text = [
      '> see [docs](https://a.example) and ![pic *b*](https://b.example "t")',
      '',
      '[ref]',
      '',
      '[ref]: https://c.example',
      '',
    ].join('\r\n');
    const spanOf = (written: string, label: string, from = 0) => {
      const start = text.indexOf(written, from);
      const labelStart = text.indexOf(label, start);
      return {
        start,
        end: start + written.length,
        labelStart,
        labelEnd: labelStart + label.length,
      };
    };
    const read = readLinks(text, reader);
    assert.equal(read.trusted, true);
    const link = (fields: object) => ({ image: false, reference: false, inside: [], ...fields });
    assert.deepEqual(read.links, [
      link({
        url: 'https://a.example',
        text: 'docs',
        span: spanOf('[docs](https://a.example)', 'docs'),
      }),
      link({
        image: true,
        url: 'https://b.example',
        text: 'pic b',
        span: spanOf('![pic *b*](https://b.example "t")', 'pic *b*'),
      }),
      link({
        reference: true,
        url: 'https://c.example',
        text: 'ref',
        span: spanOf('[ref]', 'ref', text.indexOf('\r\n[ref]')),
      }),
    ]);
    assert.deepEqual(read.definitions, [text.lastIndexOf('[ref]:')]);
    // the quote, its paragraph and inline text on line 0; the reference's paragraph on line 2
    assert.deepEqual(read.blocks, [
      [0, 1],
      [0, 1],
      [0, 1],
      [2, 3],
      [2, 3],
    ]);
  });

  test('counts the steps of label scans, and does not trust text nested past its limit', () => {
    const nested = readLinks('[a [b](c)](d)', reader);
    assert.equal(nested.trusted, true);
    assert.ok(nested.scanSteps > 0, 'a scan inside a scan took steps');
    assert.deepEqual(
      nested.links.map((l) => l.url),
      ['c'],
      'a link inside link text leaves the outer brackets as text',
    );
    const deep = readLinks(`${'['.repeat(30)}a](https://evil.example)`, reader);
    assert.equal(deep.trusted, false);
  });
});
