import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Question } from '../../../../src/core/protocol/questions/question.js';
import { CALLBACK_IDS, FREE_WRITE_INPUT } from '../../../../src/core/slack/controls/ids.js';
import { parseModalMetadata } from '../../../../src/core/slack/controls/modal-metadata.js';
import { jsonBytes } from '../../../../src/core/slack/layout/block-kit-limits.js';
import {
  readFreeWriteSubmission,
  renderFreeWriteModal,
  renderOptionsModal,
  renderPreviewModal,
} from '../../../../src/core/slack/views/render-modals.js';
import { assertModalOk, KEY, makeView, REVISION, textOf } from '../fixtures.js';

const evil = '<!channel> & <http://x|y>';
const questions: Question[] = [
  { id: 'why', type: 'free-write', prompt: `Why? ${evil}` },
  {
    id: 'md',
    type: 'yes-no',
    prompt: 'Looks right?',
    preview: { type: 'markdown', content: `# Plan\n${evil}` },
  },
  {
    id: 'art',
    type: 'yes-no',
    prompt: 'Layout?',
    preview: { type: 'ascii', content: '+-+\n| |\n+-+' },
  },
];

describe('renderFreeWriteModal', () => {
  it('asks with the escaped prompt and an input holding the draft', () => {
    const modal = renderFreeWriteModal({
      view: makeView(questions, { drafts: { why: 'draft text' } }),
      questionId: 'why',
    });
    assertModalOk(modal);
    assert.equal(modal.callback_id, CALLBACK_IDS.freeWrite);
    assert.equal(modal.title.text, 'Your answer');
    assert.equal(modal.submit?.text, 'Save');
    assert.equal(modal.close?.text, 'Cancel');
    assert.deepEqual(JSON.parse(modal.private_metadata ?? ''), {
      key: KEY,
      revision: REVISION,
      questionId: 'why',
      questionIndex: 0,
    });
    assert.ok(textOf(modal.blocks).includes('*1.* Why? &lt;!channel&gt; &amp; &lt;http://x|y&gt;'));
    const input = modal.blocks.at(-1);
    assert.deepEqual(input, {
      type: 'input',
      block_id: FREE_WRITE_INPUT.blockId,
      label: { type: 'plain_text', text: 'Your answer', emoji: true },
      element: {
        type: 'plain_text_input',
        action_id: FREE_WRITE_INPUT.actionId,
        multiline: true,
        max_length: 3000,
        initial_value: 'draft text',
      },
      optional: true,
      hint: {
        type: 'plain_text',
        text: 'Nothing to say? Save it empty: the agent gets an empty answer.',
        emoji: true,
      },
    });
  });

  it('leaves the input empty without a draft, and names a missing question clearly', () => {
    const modal = renderFreeWriteModal({ view: makeView(questions), questionId: 'why' });
    assertModalOk(modal);
    assert.ok(!textOf(modal.blocks).includes('initial_value'));
    assert.throws(
      () => renderFreeWriteModal({ view: makeView(questions), questionId: 'nope' }),
      /Question "nope" is not in batch 3 of .*run-42; it has "why", "md", "art"/,
    );
  });

  it('fits an over-long draft into the input and says so', () => {
    const draft = 'z'.repeat(3500);
    const modal = renderFreeWriteModal({
      view: makeView(questions, { drafts: { why: draft } }),
      questionId: 'why',
    });
    assertModalOk(modal);
    const input = modal.blocks.at(-1) as { hint?: { text: string } };
    assert.equal(
      input.hint?.text,
      'Your earlier answer had 3500 characters; only the first 3000 fit here.',
    );
  });

  it('reads the submitted text back', () => {
    const values = {
      [FREE_WRITE_INPUT.blockId]: {
        [FREE_WRITE_INPUT.actionId]: { type: 'plain_text_input', value: 'typed' },
      },
    };
    assert.equal(readFreeWriteSubmission(values), 'typed');
    assert.equal(readFreeWriteSubmission({}), '');
    // left empty (Slack sends null) or only blanks: an empty answer
    for (const value of [null, ' \n\t ']) {
      const given = { [FREE_WRITE_INPUT.blockId]: { [FREE_WRITE_INPUT.actionId]: { value } } };
      assert.equal(readFreeWriteSubmission(given), '');
    }
  });

  it('round-trips its metadata, even when the id is too long to keep', () => {
    const long: Question[] = [{ id: 'x'.repeat(4000), type: 'free-write', prompt: 'Long id' }];
    const modal = renderFreeWriteModal({ view: makeView(long), questionId: 'x'.repeat(4000) });
    assertModalOk(modal);
    assert.deepEqual(parseModalMetadata(modal.private_metadata ?? '', long), {
      key: KEY,
      revision: REVISION,
      questionId: 'x'.repeat(4000),
    });
    assert.equal(parseModalMetadata('not json', long), undefined);
    assert.equal(parseModalMetadata('{"key":1}', long), undefined);
  });
});

describe('renderPreviewModal', () => {
  it('shows a markdown preview as escaped mrkdwn sections', () => {
    const { modal, cut } = renderPreviewModal({ view: makeView(questions), questionId: 'md' });
    assert.equal(cut, false);
    assertModalOk(modal); // includes: no markdown blocks, no unescaped "<"
    assert.equal(modal.submit, undefined);
    assert.ok(textOf(modal.blocks).includes('# Plan\\n&lt;!channel&gt; &amp; &lt;http://x|y&gt;'));
  });

  it('shows an ascii preview preformatted', () => {
    const { modal } = renderPreviewModal({ view: makeView(questions), questionId: 'art' });
    assertModalOk(modal);
    assert.deepEqual(modal.blocks[1], {
      type: 'rich_text',
      elements: [
        { type: 'rich_text_preformatted', elements: [{ type: 'text', text: '+-+\n| |\n+-+' }] },
      ],
    });
  });

  for (const type of ['markdown', 'ascii'] as const) {
    it(`shows a long ${type} preview whole in chunks`, () => {
      const content = 'abc <def> & ghi\n'.repeat(5000);
      const view = makeView([{ id: 'p', type: 'yes-no', prompt: 'P', preview: { type, content } }]);
      const { modal, cut } = renderPreviewModal({ view, questionId: 'p' });
      assertModalOk(modal);
      assert.equal(cut, false);
      assert.ok(modal.blocks.length > 10);
      assert.ok(!textOf(modal.blocks).includes('Showing the first'));
    });

    it(`cuts a ${type} preview too long for a modal to Slack's 250 kB and says where the whole is`, () => {
      // escaping and multi-byte text: 100 blocks of 3,000 characters would be ~1 MB of JSON
      const content = 'ü & <ö> '.repeat(60_000);
      const view = makeView([{ id: 'p', type: 'yes-no', prompt: 'P', preview: { type, content } }]);
      const attaching = renderPreviewModal({ view, questionId: 'p' });
      assertModalOk(attaching.modal);
      assert.equal(attaching.cut, true);
      assert.ok(jsonBytes(attaching.modal) <= 250_000, `${jsonBytes(attaching.modal)} bytes`);
      const note = textOf(attaching.modal.blocks.at(-1));
      assert.match(
        note,
        /Showing the first \d+ of 480000 characters\. The whole preview is being attached/,
      );
      const attached = renderPreviewModal(
        { view, questionId: 'p' },
        { kind: 'attached', link: 'https://fake-o7.slack.com/archives/C1/p1' },
      );
      assert.ok(jsonBytes(attached.modal) <= 250_000);
      assert.match(
        textOf(attached.modal.blocks.at(-1)),
        /in the batch's thread as a file: <https:\/\/fake-o7\.slack\.com\/archives\/C1\/p1\|open the thread>/,
      );
      const failed = renderPreviewModal(
        { view, questionId: 'p' },
        { kind: 'failed', reason: 'not_in_channel' },
      );
      assert.match(
        textOf(failed.modal.blocks.at(-1)),
        /could not be attached \(not_in_channel\); it is in \/home\/me\/project\/\.7\/runs\/run-42\/qa\/q-out-003\.json/,
      );
    });
  }
});

describe('renderOptionsModal', () => {
  it("stays within Slack's 250 kB however long and many the options", () => {
    const options = Array.from({ length: 100 }, (_, i) => `${i} ${'ü&<'.repeat(3000)}`);
    const view = makeView([{ id: 'c', type: 'choose-many', prompt: 'Pick', options }]);
    const modal = renderOptionsModal({ view, questionId: 'c' });
    assertModalOk(modal);
    assert.ok(jsonBytes(modal) <= 250_000, `${jsonBytes(modal)} bytes`);
    assert.match(textOf(modal.blocks.at(-1)), /All 100 options are in/);
  });

  it('lists every option in full, escaped and numbered', () => {
    const options = ['short', `long ${'text '.repeat(40)}${evil}`];
    const view = makeView([{ id: 'c', type: 'choose-one', prompt: 'Pick', options }]);
    const modal = renderOptionsModal({ view, questionId: 'c' });
    assertModalOk(modal);
    const text = textOf(modal.blocks);
    assert.ok(text.includes('1. short\\n2. long text'));
    assert.ok(text.includes('&lt;!channel&gt;'));
  });
});
