import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Question } from '../../../../src/core/protocol/questions/question.js';
import { plainText } from '../../../../src/core/slack/layout/block-builders.js';
import { renderBatchMessages } from '../../../../src/core/slack/messages/render-batch-messages.js';
import { renderMalformedMessage } from '../../../../src/core/slack/messages/render-malformed.js';
import { renderNotice } from '../../../../src/core/slack/messages/render-notice.js';
import { preformatted, renderPreview } from '../../../../src/core/slack/messages/render-preview.js';
import { renderRefusedNotice } from '../../../../src/core/slack/messages/render-refused.js';
import { escapedLength, escapeMrkdwn } from '../../../../src/core/slack/text/escape-mrkdwn.js';
import {
  isHiddenControl,
  SHOWN_CONTROL_LENGTH,
  showControls,
} from '../../../../src/core/slack/text/show-controls.js';
import { cutEscaped, splitEscaped } from '../../../../src/core/slack/text/text-cut.js';
import {
  renderFreeWriteModal,
  renderOptionsModal,
  renderPreviewModal,
} from '../../../../src/core/slack/views/render-modals.js';
import { assertModalOk, assertWithinLimits, makeView } from '../fixtures.js';

/** Any character `showControls` writes out, wherever it is in a rendered payload. */
const HIDDEN = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

/** The strings of a payload that hold a hidden character, with their JSON paths. */
function hiddenIn(value: unknown, path = ''): string[] {
  if (typeof value === 'string')
    return HIDDEN.test(value.replace(/[\t\n]/g, '')) ? [`${path}: ${JSON.stringify(value)}`] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => hiddenIn(v, `${path}/${i}`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => hiddenIn(v, `${path}/${k}`));
}

describe('showControls', () => {
  const table: [string, string, string][] = [
    ['NUL', 'a\u0000b', 'a\\u0000b'],
    ['ESC of a terminal colour', '\u001b[31mred\u001b[0m', '\\u001b[31mred\\u001b[0m'],
    [
      'bell, backspace, vertical tab, form feed',
      '\u0007\u0008\u000b\u000c',
      '\\u0007\\u0008\\u000b\\u000c',
    ],
    ['DEL and a C1 control', 'x\u007fy\u0085z', 'x\\u007fy\\u0085z'],
    [
      'a right-to-left override (txt.exe reads exe.txt)',
      'invoice\u202etxt.exe',
      'invoice\\u202etxt.exe',
    ],
    [
      'every embedding, override and isolate',
      '\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069',
      '\\u202a\\u202b\\u202c\\u202d\\u2066\\u2067\\u2068\\u2069',
    ],
    ['a lone CR', 'progress 10%\rprogress 99%', 'progress 10%\\u000dprogress 99%'],
    ['CR LF, a Windows line end', 'one\r\ntwo\r\n', 'one\ntwo\n'],
    ['tab and newline, kept', 'a\tb\nc', 'a\tb\nc'],
    [
      'LRM, RLM and ALM, which right-to-left text needs',
      'שלום\u200f (a)\u200e \u061c',
      'שלום\u200f (a)\u200e \u061c',
    ],
    ['a word joiner and emoji, kept', '@\u2060here 🎉', '@\u2060here 🎉'],
    ['text that looks escaped already, kept', 'a \\u0000 b', 'a \\u0000 b'],
  ];
  for (const [what, input, shown] of table) {
    it(what, () => {
      assert.equal(showControls(input), shown);
      assert.equal(showControls(shown), shown, 'applying it again changes nothing');
    });
  }

  it('writes out exactly the units isHiddenControl names, each in SHOWN_CONTROL_LENGTH', () => {
    for (let code = 0; code <= 0xffff; code += 1) {
      if (code === 0x0d) continue; // CR: shown alone, kept as a line end before LF
      const unit = String.fromCharCode(code);
      const shown = showControls(unit);
      assert.equal(shown !== unit, isHiddenControl(unit), `U+${code.toString(16)}`);
      if (shown !== unit) assert.equal(shown.length, SHOWN_CONTROL_LENGTH);
    }
  });
});

describe('every text the relay sends goes through showControls', () => {
  const odd = 'a\u0000b\u001bc\u202ed';
  const shown = 'a\\u0000b\\u001bc\\u202ed';

  it('mrkdwn, with the escaped length that cuts are made by', () => {
    assert.equal(escapeMrkdwn(`<${odd}>`), `&lt;${shown}&gt;`);
    for (const unit of ['\u0000', '\u001b', '\u202e', '\r']) {
      assert.equal(escapedLength(unit), SHOWN_CONTROL_LENGTH);
    }
    const cut = cutEscaped('\u0000'.repeat(100), 60);
    assert.equal(cut.text, '\\u0000'.repeat(10));
    assert.ok(splitEscaped('\u001b'.repeat(1000), 3000).every((chunk) => chunk.length <= 3000));
  });

  it('plain text, cut after writing out', () => {
    assert.equal(plainText(odd).text, shown);
    assert.equal(plainText('\u0000'.repeat(100), 75).text.length, 75);
  });

  it('previews: markdown block, preformatted ascii, and the modal with all of it', () => {
    const place = { key: 'k', revision: 'r', questionIndex: 0 };
    const markdown = renderPreview(place, { type: 'markdown', content: `# ${odd}` }, 12_000);
    assert.deepEqual(markdown[0], { type: 'markdown', text: `# ${shown}` });
    const ascii = renderPreview(place, { type: 'ascii', content: odd }, 12_000);
    assert.deepEqual(hiddenIn(ascii), []);
    assert.ok(JSON.stringify(ascii).includes(JSON.stringify(shown).slice(1, -1)));
    assert.deepEqual(hiddenIn(preformatted(odd)), []);
  });

  it('messages, modals and notices built from a question file full of them', () => {
    const questions: Question[] = [
      {
        id: 'q1',
        type: 'choose-one',
        prompt: `Prompt ${odd}`,
        options: [`Option ${odd}`, `${odd} `.repeat(40)],
        preview: { type: 'markdown', content: `${odd}\n`.repeat(3000) },
      },
      {
        id: 'q2',
        type: 'free-write',
        prompt: odd,
        preview: { type: 'ascii', content: `${odd}\n`.repeat(3000) },
      },
    ];
    const view = makeView(questions, { runName: `run-${odd}`, state: { kind: 'open', note: odd } });
    const messages = renderBatchMessages(view);
    assertWithinLimits(messages);
    assert.deepEqual(hiddenIn(messages), []);
    for (const questionId of ['q1', 'q2']) {
      const modals = [
        renderPreviewModal({ view, questionId }).modal,
        renderOptionsModal({ view, questionId }),
        renderFreeWriteModal({ view, questionId: 'q2' }),
      ];
      for (const modal of modals) assertModalOk(modal);
      assert.deepEqual(hiddenIn(modals), []);
    }
    const malformed = renderMalformedMessage({
      runName: odd,
      runDir: `/runs/${odd}`,
      seq: 1,
      fileName: `q-out-001.json${odd}`,
      errorText: `bad ${odd}`.repeat(500),
    });
    assertWithinLimits([malformed]);
    const refused = renderRefusedNotice({
      runName: odd,
      seq: 1,
      questionFile: `/runs/${odd}/qa/q-out-001.json`,
      code: 'invalid_blocks',
      fix: odd,
    });
    assert.deepEqual(hiddenIn([malformed, refused, renderNotice(`folder /runs/${odd}`)]), []);
  });
});
