import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderPreview } from '../../../src/core/slack/render-preview.js';
import { hiddenLinks } from '../../support/markdown-link-shapes.js';

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
