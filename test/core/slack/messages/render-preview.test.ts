import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitMarkdown, renderPreview } from '../../../../src/core/slack/messages/render-preview.js';
import { defusedMarkdown } from '../../../../src/core/slack/text/defuse-markdown-links.js';
import { hostileMarkdown } from '../../../support/hostile-markdown.js';
import { hiddenLinks } from '../../../support/markdown-link-shapes.js';

const place = { key: 'k1', revision: 'r1', questionIndex: 0 };

test('disguised links in markdown previews show their destination', () => {
  const blocks = renderPreview(
    place,
    { type: 'markdown', content: 'Please [Approve](https://evil.example/x) now.' },
    10_000,
  );
  assert.deepEqual(blocks, [
    { type: 'markdown', text: 'Please \\[Approve\\] (https://evil.example/x) now.' },
  ]);
});

test('ascii previews are literal and left alone', () => {
  const blocks = renderPreview(place, { type: 'ascii', content: '[a](b)' }, 10_000);
  assert.equal(JSON.stringify(blocks).includes('[a](b)'), true);
});

test('a cut inside a code span does not let the link text in it become a live link', () => {
  const content = 'Intro `[Approve](https://evil.example/x) and more code` end.';
  const cut = content.indexOf(' and') + 1;
  assert.notDeepEqual(hiddenLinks(content.slice(0, cut)), [], 'the bare cut would hide a link');
  assert.deepEqual(hiddenLinks(content), [], 'the whole preview hides none');
  // room for the cut start once its link is rewritten (three characters longer)
  const [shown, note] = renderPreview(place, { type: 'markdown', content }, cut + 3);
  assert.deepEqual(shown, {
    type: 'markdown',
    text: 'Intro `\\[Approve\\] (https://evil.example/x) ',
  });
  assert.deepEqual(note, {
    type: 'context',
    elements: [
      {
        type: 'plain_text',
        text: `Preview cut at ${cut} of ${content.length} characters.`,
        emoji: true,
      },
    ],
  });
});

test('a preview whose defused text outgrows the room is cut to fit it', () => {
  const content = Array.from(
    { length: 30 },
    (_, i) => `- [step ${i}](https://x.example/${i})`,
  ).join('\n');
  const room = content.length;
  const [shown, note] = renderPreview(place, { type: 'markdown', content }, room);
  assert.equal(shown?.type, 'markdown');
  const text = (shown as { text: string }).text;
  assert.ok(text.length <= room, `${text.length} characters in a room of ${room}`);
  assert.deepEqual(hiddenLinks(text), []);
  assert.match(text, /^- \\\[step 0\\\] \(https:\/\/x\.example\/0\)\n/);
  assert.match(JSON.stringify(note), /Preview cut at \d+ of \d+ characters\./);
});

/** The real defuser, counting its calls. */
function countingDefuser() {
  const calls: string[] = [];
  const defuse = (markdown: string) => {
    calls.push(markdown);
    return defusedMarkdown(markdown);
  };
  return { calls, defuse };
}

test('a preview is defused at most twice to fit, however hostile, and hides no link', () => {
  const shapes = Object.entries(hostileMarkdown(13_000));
  shapes.push([
    'references to a long definition',
    `[r]: /${'a'.repeat(200)}\n\n${'[r] '.repeat(3000)}`,
  ]);
  for (const [name, content] of shapes) {
    const { calls, defuse } = countingDefuser();
    const { shown, end } = fitMarkdown(content, 12_000, defuse);
    assert.ok(calls.length <= 2, `${name}: defused ${calls.length} times`);
    assert.ok(shown.length <= 12_000, `${name}: ${shown.length} characters`);
    assert.ok(end <= content.length, name);
    assert.deepEqual(hiddenLinks(shown), [], name);
  }
});

test('an agent plan longer than the room is defused once, and cut between its list items', () => {
  const content = Array.from(
    { length: 400 },
    (_, i) => `- [step ${i}](https://x.example/${i})`,
  ).join('\n');
  const { calls, defuse } = countingDefuser();
  const { shown, end } = fitMarkdown(content, 12_000, defuse);
  assert.equal(calls.length, 1);
  assert.ok(shown.length <= 12_000 && shown.length > 11_900, `${shown.length} shown`);
  // the cut is at the start of an item, and what is shown is that start defused
  assert.equal(content[end - 1], '\n');
  assert.equal(shown, defusedMarkdown(content.slice(0, end)).markdown.trimEnd());
});

test('a start that still grows past the room once cut shorter is shown as a code block', () => {
  const content = `Intro [a](https://evil.example) \`\`\`\` ${'word '.repeat(100)}@here`;
  // a defuser whose text always outgrows the room, as a cut that opens a code span can make it
  const calls: string[] = [];
  const growing = (markdown: string) => {
    calls.push(markdown);
    return { markdown: `${markdown}${' x'.repeat(150)}`, cuts: [] };
  };
  const { shown, end } = fitMarkdown(content, 300, growing);
  assert.equal(calls.length, 2);
  assert.ok(shown.length <= 300, `${shown.length} characters`);
  assert.equal(shown, `\`\`\`\`\`\n${content.slice(0, end)}\n\`\`\`\`\``);
  assert.ok(end > 200, `cut at ${end}`);
  assert.deepEqual(hiddenLinks(shown), []);
});
