import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defuseMarkdownLinks } from '../../../src/core/slack/defuse-markdown-links.js';
import { renderPreview } from '../../../src/core/slack/render-preview.js';

const place = { key: 'k1', revision: 'r1', questionIndex: 0 };

test('disguised links in markdown previews show their destination', () => {
  const blocks = renderPreview(
    place,
    { type: 'markdown', content: 'Please [Approve](https://evil.example/x) now.' },
    10_000,
  );
  assert.deepEqual(blocks, [
    { type: 'markdown', text: 'Please Approve (https://evil.example/x) now.' },
  ]);
});

test('ascii previews are literal and left alone', () => {
  const blocks = renderPreview(place, { type: 'ascii', content: '[a](b)' }, 10_000);
  assert.equal(JSON.stringify(blocks).includes('[a](b)'), true);
});

test('defuseMarkdownLinks rewrites links and images, nested ones too', () => {
  assert.equal(defuseMarkdownLinks('![logo](https://x/l.png)'), 'logo (https://x/l.png)');
  assert.equal(
    defuseMarkdownLinks('[![build](https://ci/b.svg)](https://evil)'),
    'build (https://ci/b.svg) (https://evil)',
  );
  assert.equal(
    defuseMarkdownLinks('[Wiki](https://en.wikipedia.org/wiki/Foo_(bar) "title")'),
    'Wiki (https://en.wikipedia.org/wiki/Foo_(bar))',
  );
  assert.equal(defuseMarkdownLinks('[ok](<https://a b>)'), 'ok (https://a b)');
  assert.equal(defuseMarkdownLinks('[](https://evil)'), '(https://evil)');
  assert.equal(defuseMarkdownLinks('a\n[x](u) and [y](v)\nb'), 'a\nx (u) and y (v)\nb');
});

test('defuseMarkdownLinks escapes reference definitions so [text][ref] stays text', () => {
  assert.equal(
    defuseMarkdownLinks('Click [Approve][go]\n\n[go]: https://evil'),
    'Click [Approve][go]\n\n\\[go]: https://evil',
  );
});

test('defuseMarkdownLinks leaves code spans, fences and escaped brackets untouched', () => {
  const text = [
    'Use `[a](b)` literally, or ``x [c](d) y``.',
    '```md',
    '[e](f)',
    '```',
    '~~~',
    '[g](h)',
    '~~~',
    '\\[i](j) and [k](l)',
  ].join('\n');
  assert.equal(
    defuseMarkdownLinks(text),
    [
      'Use `[a](b)` literally, or ``x [c](d) y``.',
      '```md',
      '[e](f)',
      '```',
      '~~~',
      '[g](h)',
      '~~~',
      '\\[i](j) and k (l)',
    ].join('\n'),
  );
});

test('defuseMarkdownLinks leaves text without links as it is', () => {
  for (const text of ['', 'plain', 'a [bracket] and (paren)', '```\nunclosed [a](b)']) {
    assert.equal(defuseMarkdownLinks(text), text);
  }
});
