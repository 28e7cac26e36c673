import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { defuseMarkdownLinks } from '../../../src/core/slack/defuse-markdown-links.js';
import {
  hiddenLinks,
  linkCases,
  parseMarkdown,
  stitchedTexts,
  TEXTS_HIDING_NO_LINK,
  withoutPositions,
} from '../../support/markdown-link-shapes.js';

/** Fails unless `markdown` defuses to exactly `expected`, and that hides no link. */
function assertDefusesTo(markdown: string, expected: string): void {
  const defused = defuseMarkdownLinks(markdown);
  assert.equal(defused, expected);
  assert.deepEqual(hiddenLinks(defused), [], `hidden links in ${JSON.stringify(defused)}`);
}

describe('defuseMarkdownLinks: what a reader sees', () => {
  test('a link shows its text in brackets, then where it goes', () => {
    assertDefusesTo(
      'Please [Approve](https://evil.example/x "Looks safe") now.',
      'Please \\[Approve\\] (https://evil.example/x) now.',
    );
  });

  test('an image shows its alt text and its source', () => {
    assertDefusesTo('![logo](https://x.example/l.png)', '!\\[logo\\] (https://x.example/l.png)');
  });

  test('a badge image inside a link shows both destinations', () => {
    assertDefusesTo(
      '[![build](https://ci.example/b.svg)](https://evil.example)',
      '\\[!\\[build\\] (https://ci.example/b.svg)\\] (https://evil.example)',
    );
  });

  test('a reference link shows the destination of its definition, which shows as text', () => {
    assertDefusesTo(
      'Click [Approve][go], [go][] or [GO].\n\n[Go]: https://evil.example "t"',
      'Click \\[Approve\\] (https://evil.example), \\[go\\] (https://evil.example) or \\[GO\\] (https://evil.example).\n\n\\[Go]: https://evil.example "t"',
    );
  });

  test('markup in a destination is escaped so the destination shows as it is', () => {
    assertDefusesTo(
      '[a](<https://x.example/*b*_c_`d`&amp;e>)',
      '\\[a\\] (https://x.example/\\*b\\*\\_c\\_\\`d\\`\\&e)',
    );
  });

  test('autolinks and links whose text is their destination stay as they are', () => {
    for (const text of [
      '<https://x.example/a> and <someone@mail.example>',
      '[https://x.example/a](https://x.example/a "t")',
    ]) {
      assertDefusesTo(text, text);
    }
  });

  test('a link with no text, or no destination, is rewritten all the same', () => {
    assertDefusesTo('[](https://evil.example) [a]()', '\\[\\] (https://evil.example) \\[a\\] ()');
  });

  test('a link made of the brackets around a rewritten one is rewritten too', () => {
    assertDefusesTo(
      '[see [this](https://a.example)](https://evil.example)',
      '\\[see \\[this\\] (https://a.example)\\] (https://evil.example)',
    );
  });

  test('a leading byte order mark is kept and does not shift the rewriting', () => {
    assertDefusesTo('\uFEFF[a](https://evil.example)', '\uFEFF\\[a\\] (https://evil.example)');
  });

  test('characters outside the basic plane and NUL do not shift the rewriting', () => {
    assertDefusesTo(
      '\0 😀 [a😀](https://x.example/😀) \0[b](https://evil.example)',
      '\0 😀 \\[a😀\\] (https://x.example/😀) \0\\[b\\] (https://evil.example)',
    );
  });

  test('text with Windows line endings and tabs is rewritten in place', () => {
    assertDefusesTo(
      '- one\r\n\t[a](https://evil.example)\r\n',
      '- one\r\n\t\\[a\\] (https://evil.example)\r\n',
    );
  });
});

// Each of these got past the hand-written scanner this parser replaced.
describe('defuseMarkdownLinks: links the old scanner missed', () => {
  const missed: [string, string][] = [
    ['a bracket in a code span in the link text', '[Approve `]`](https://evil.example)'],
    ['escaped brackets in the link text', '[Approve \\] now](https://evil.example)'],
    ['nested brackets in the link text', '[Approve [now]](https://evil.example)'],
    ['nested parentheses in the destination', '[a](https://evil.example/(b(c)))'],
    ['an escaped parenthesis in the destination', '[a](https://evil.example/\\()'],
    ['a definition in a block quote', '[Approve]\n\n> [approve]: https://evil.example'],
    [
      'a definition title on its own line',
      '[Approve]\n\n[approve]:\n  https://evil.example\n  "t"',
    ],
    ['an autolink as the link text', '[<https://good.example>](https://evil.example)'],
    ['a fence line whose info string has a backtick', '```a`b\n[Approve](https://evil.example)'],
    ['a paragraph that only looks fenced', '``` `x` [a](https://evil.example)\n```'],
    ['a fence indented by four spaces', '    ```\n[Approve](https://evil.example)'],
    ['a link inside an HTML block', '<div>\n[Approve](https://evil.example)\n</div>'],
    ['a link inside an HTML attribute', '<b title="[Approve](https://evil.example)">x</b>'],
  ];
  for (const [name, markdown] of missed) {
    test(name, () => {
      assert.notDeepEqual(hiddenLinks(markdown), [], 'the text does hide a link');
      const defused = defuseMarkdownLinks(markdown);
      assert.deepEqual(hiddenLinks(defused), [], JSON.stringify(defused));
      assert.match(defused, /https:\/\/evil\.example/, 'the destination is shown');
    });
  }
});

describe('defuseMarkdownLinks: generated link shapes', () => {
  const cases = linkCases();

  test('the generator writes real links, each in a shape of its own', () => {
    assert.ok(cases.length > 1000, `${cases.length} cases`);
    assert.equal(new Set(cases.map((c) => c.markdown)).size, cases.length);
    const withoutLinks = cases.filter((c) => hiddenLinks(c.markdown).length === 0);
    assert.deepEqual(
      withoutLinks.map((c) => c.name),
      [],
      'every generated text hides a link before it is defused',
    );
  });

  test('every shape reads, once defused, as its text and destination in the same place', () => {
    const failures: string[] = [];
    for (const c of cases) {
      const defused = defuseMarkdownLinks(c.markdown);
      const hidden = hiddenLinks(defused);
      const differ = c.readings.filter(
        (reading) =>
          !isDeepStrictEqual(
            withoutPositions(parseMarkdown(defused, reading)),
            withoutPositions(parseMarkdown(c.expected, reading)),
          ),
      );
      if (hidden.length > 0 || differ.length > 0) {
        failures.push(
          `${c.name}\n  written: ${JSON.stringify(c.markdown)}\n  defused: ${JSON.stringify(defused)}\n  expected: ${JSON.stringify(c.expected)}\n  hidden: ${hidden.join('; ')}\n  reads differently: ${differ.join(', ')}`,
        );
      }
    }
    assert.equal(failures.length, 0, failures.slice(0, 5).join('\n'));
  });
});

describe('defuseMarkdownLinks: text that hides no link', () => {
  test('is returned exactly as written, whatever looks like a link in it', () => {
    for (const text of TEXTS_HIDING_NO_LINK) {
      assert.deepEqual(hiddenLinks(text), [], `no hidden link in ${JSON.stringify(text)}`);
      assert.equal(defuseMarkdownLinks(text), text);
    }
  });
});

describe('defuseMarkdownLinks: texts stitched from link syntax', () => {
  const texts = stitchedTexts(600);

  test('hide no link once defused, and defusing again changes nothing', () => {
    const failures = texts.flatMap((text) => {
      const defused = defuseMarkdownLinks(text);
      const hidden = hiddenLinks(defused);
      const again = defuseMarkdownLinks(defused);
      return hidden.length === 0 && again === defused
        ? []
        : [`${JSON.stringify(text)} -> ${JSON.stringify(defused)}: ${hidden.join('; ')}`];
    });
    assert.deepEqual(failures, []);
  });

  test('that hide no link are left exactly as written', () => {
    const honest = texts.filter((text) => hiddenLinks(text).length === 0);
    assert.ok(honest.length > 50, `${honest.length} stitched texts hide no link`);
    for (const text of honest) assert.equal(defuseMarkdownLinks(text), text);
  });
});

describe('defuseMarkdownLinks: text it will not parse', () => {
  test('brackets nested past a few levels are shown whole as code', () => {
    const nested = `${'['.repeat(6)}a](https://evil.example)${'](https://b.example)'.repeat(5)}`;
    assertDefusesTo(nested, `\`\`\`\n${nested}\n\`\`\``);
  });

  test('deep nesting and long runs of emphasis marks are shown whole as code', () => {
    for (const text of [
      `${'- '.repeat(40)}[a](https://evil.example)`,
      `${'>'.repeat(40)} [a](https://evil.example)`,
      `${'*'.repeat(70)}[a](https://evil.example)${'*'.repeat(70)}`,
    ]) {
      assertDefusesTo(text, `\`\`\`\n${text}\n\`\`\``);
    }
  });

  test('a code block fence is longer than any run of backticks in the text', () => {
    const text = `\`\`\`\`[a](b)\n${'- '.repeat(40)}x`;
    assertDefusesTo(text, `\`\`\`\`\`\n${text}\n\`\`\`\`\``);
  });
});
