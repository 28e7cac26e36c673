import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  defusalOf,
  defusedMarkdown,
  defuseMarkdownLinks,
} from '../../../../src/core/slack/text/defuse-markdown-links.js';
import { hostileMarkdown } from '../../../support/hostile-markdown.js';
import {
  hiddenLinks,
  linkCases,
  renderMarkdown,
  stitchedTexts,
  TEXTS_HIDING_NO_LINK,
} from '../../../support/markdown-link-shapes.js';

/** Fails unless `markdown` defuses to exactly `expected`, and that hides no link. */
function assertDefusesTo(markdown: string, expected: string): void {
  const defused = defuseMarkdownLinks(markdown);
  assert.equal(defused, expected);
  assert.deepEqual(hiddenLinks(defused), [], `hidden links in ${JSON.stringify(defused)}`);
}

describe('defuseMarkdownLinks: what a reader sees', () => {
  const cases: { name: string; written: string; shown: string }[] = [
    {
      name: 'a link shows its text in brackets, then where it goes',
      written: 'Please [Approve](https://evil.example/x "Looks safe") now.',
      shown: 'Please \\[Approve\\] (https://evil.example/x) now.',
    },
    {
      name: 'an image shows its alt text and its source',
      written: '![logo](https://x.example/l.png)',
      shown: '!\\[logo\\] (https://x.example/l.png)',
    },
    {
      name: 'a badge image inside a link shows both destinations',
      written: '[![build](https://ci.example/b.svg)](https://evil.example)',
      shown: '\\[!\\[build\\] (https://ci.example/b.svg)\\] (https://evil.example)',
    },
    {
      name: 'a reference link shows the destination of its definition, which shows as text',
      written: 'Click [Approve][go], [go][] or [GO].\n\n[Go]: https://evil.example "t"',
      shown:
        'Click \\[Approve\\] (https://evil.example), \\[go\\] (https://evil.example) or \\[GO\\] (https://evil.example).\n\n\\[Go]: https://evil.example "t"',
    },
    {
      name: 'markup in a destination is escaped so the destination shows as it is',
      written: '[a](<https://x.example/*b*_c_`d`&amp;e>)',
      shown: '\\[a\\] (https://x.example/\\*b\\*\\_c\\_\\`d\\`\\&e)',
    },
    {
      name: 'a link with no text, or no destination, is rewritten all the same',
      written: '[](https://evil.example) [a]()',
      shown: '\\[\\] (https://evil.example) \\[a\\] ()',
    },
    {
      name: 'a link made of the brackets around a rewritten one is rewritten too',
      written: '[see [this](https://a.example)](https://evil.example)',
      shown: '\\[see \\[this\\] (https://a.example)\\] (https://evil.example)',
    },
    {
      name: 'a leading byte order mark is kept and does not shift the rewriting',
      written: '\uFEFF[a](https://evil.example)',
      shown: '\uFEFF\\[a\\] (https://evil.example)',
    },
    {
      name: 'characters outside the basic plane and NUL do not shift the rewriting',
      written: '\0 😀 [a😀](https://x.example/😀) \0[b](https://evil.example)',
      shown: '\0 😀 \\[a😀\\] (https://x.example/😀) \0\\[b\\] (https://evil.example)',
    },
    {
      name: 'text with Windows line endings and tabs is rewritten in place',
      written: '- one\r\n\t[a](https://evil.example)\r\n',
      shown: '- one\r\n\t\\[a\\] (https://evil.example)\r\n',
    },
  ];
  for (const c of cases) test(c.name, () => assertDefusesTo(c.written, c.shown));

  test('autolinks and links whose text is their destination stay as they are', () => {
    for (const text of [
      '<https://x.example/a> and <someone@mail.example>',
      '[https://x.example/a](https://x.example/a "t")',
    ]) {
      assertDefusesTo(text, text);
    }
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
        (reading) => renderMarkdown(defused, reading) !== renderMarkdown(c.expected, reading),
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
    // the backticks close the line: at its start they would open a fence, and the lists below
    // would be code, which reads as it is
    const text = `[a](b) \`\`\`\`\n${'- '.repeat(40)}x`;
    assertDefusesTo(text, `\`\`\`\`\`\n${text}\n\`\`\`\`\``);
  });
});

describe('defusedMarkdown: where the defused text can be cut', () => {
  test('between blocks and between the items of a top-level list, never inside a block', () => {
    // lines long enough for every cut to be kept (cuts are kept 64 characters apart at least)
    const markdown = [
      '# Plan',
      'See [a](https://x.example) and',
      'more.',
      '- one',
      '- two',
      '  still two',
      '> [b](c)',
      '> d',
    ]
      .map((line) => `${line} ${'x'.repeat(64)}`)
      .join('\n');
    const { markdown: defused, cuts } = defusedMarkdown(markdown);
    const lineOf = (text: string, at: number) => text.slice(0, at).split('\n').length;
    assert.deepEqual(
      cuts.map((cut) => lineOf(markdown, cut.written)),
      [2, 4, 5, 7],
    );
    // each cut is the same line start in the defused text
    for (const cut of cuts) {
      assert.equal(lineOf(defused, cut.defused), lineOf(markdown, cut.written));
      assert.equal(defused[cut.defused - 1], '\n');
    }
  });

  test('what comes before each cut hides no link, and is what defusing that start gives', () => {
    const texts = [
      ...linkCases().map((c) => c.markdown),
      ...stitchedTexts(600),
      ...TEXTS_HIDING_NO_LINK,
    ];
    const failures: string[] = [];
    for (const text of texts) {
      const { markdown: defused, cuts } = defusedMarkdown(text);
      for (const cut of cuts) {
        const start = defused.slice(0, cut.defused).trimEnd();
        const hidden = hiddenLinks(start);
        // a start cut off from the definitions after it has fewer references to rewrite
        const again = text.includes(']:')
          ? start
          : defuseMarkdownLinks(text.slice(0, cut.written)).trimEnd();
        if (hidden.length > 0 || again !== start || !/[\r\n]$/.test(text.slice(0, cut.written))) {
          failures.push(`${JSON.stringify(text)} cut at ${cut.written}: ${JSON.stringify(start)}`);
        }
      }
    }
    assert.deepEqual(failures, []);
  });
});

// The defuser runs while a batch message is rendered, on the relay's one thread: its work must
// be bounded whatever the agent writes. Counted, not timed (the bench times it).
describe('defuseMarkdownLinks: bounded work', () => {
  /** Fails unless defusing `markdown` stayed within the bounds and hides no link. */
  function assertBounded(name: string, markdown: string, readings: number): void {
    const { markdown: defused, parses, charactersRead, scanSteps } = defusalOf(markdown);
    const where = `${name}: ${parses} parses, ${charactersRead} characters, ${scanSteps} steps`;
    // four passes at most, each reading the text once per reading
    assert.ok(parses <= 4 * readings, where);
    // rewriting makes no text more than four times longer than written
    assert.ok(charactersRead <= parses * (4 * markdown.length + 256), where);
    // scans for the end of link text nest 20 deep at most (levels 0 to 20): each level reads a
    // character at most twice
    assert.ok(scanSteps <= 2 * 21 * charactersRead, where);
    assert.deepEqual(hiddenLinks(defused), [], name);
  }

  test('each hostile shape is read at most four times each way, each read a bounded scan', () => {
    for (const [name, markdown] of Object.entries(hostileMarkdown(12_000))) {
      assertBounded(name, markdown, 2);
    }
  });

  test('text that starts with a byte order mark is read with and without it, no more', () => {
    for (const [name, markdown] of Object.entries(hostileMarkdown(12_000))) {
      assertBounded(`${name} after a byte order mark`, `\uFEFF${markdown}`, 4);
    }
  });

  test('an agent plan with a link on each line is read once to rewrite and once to check', () => {
    const plan = Array.from(
      { length: 300 },
      (_, i) => `- Step ${i}: [m${i}](https://x.example/${i})`,
    );
    const { parses } = defusalOf(plan.join('\n'));
    assert.equal(parses, 2);
    // raw HTML in it: both readings, each once to rewrite and once to check
    assert.equal(defusalOf(`${plan.join('\n')}\n\n<b>done</b>`).parses, 4);
  });

  test('references to one long definition are not written out past four times the text', () => {
    const markdown = `[r]: https://evil.example/${'a'.repeat(1000)}\n\n${'[r] '.repeat(500)}`;
    assertDefusesTo(markdown, `\`\`\`\n${markdown}\n\`\`\``);
    assert.ok(defusalOf(markdown).charactersRead <= 4 * markdown.length + 256);
  });
});
