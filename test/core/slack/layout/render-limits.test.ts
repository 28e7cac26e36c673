// Many generated batches (fixed seed, so every run is the same) must all stay within limits.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Answer, Question } from '../../../../src/core/protocol/questions/question.js';
import { decodeAction } from '../../../../src/core/slack/controls/decode-action.js';
import { ACTION_KINDS } from '../../../../src/core/slack/controls/ids.js';
import type { BatchView } from '../../../../src/core/slack/layout/batch-view.js';
import { renderBatchMessages } from '../../../../src/core/slack/messages/render-batch-messages.js';
import {
  renderFreeWriteModal,
  renderOptionsModal,
  renderPreviewModal,
} from '../../../../src/core/slack/views/render-modals.js';
import { assertModalOk, assertWithinLimits, elementsOf, makeView } from '../fixtures.js';

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const PIECES = [
  'word',
  '<!channel>',
  '&',
  'ünïcode',
  '😀',
  '<@U1>',
  '*bold*',
  '\n',
  '> quote',
  '`x`',
];

function generate(next: () => number): BatchView {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const text = (max: number): string => {
    const length = Math.floor(next() ** 3 * max) + 1;
    let out = '';
    while (out.length < length) out += `${pick(PIECES)} `;
    return out;
  };
  const count = Math.floor(next() ** 2 * 40) + 1;
  const drafts: Record<string, Answer> = {};
  const questions: Question[] = Array.from({ length: count }, (_, i) => {
    const type = pick(['choose-one', 'choose-many', 'yes-no', 'free-write'] as const);
    const question: Question = { id: `q${i}`, type, prompt: text(next() < 0.05 ? 20_000 : 300) };
    if (type === 'choose-one' || type === 'choose-many') {
      const n = pick([1, 2, 5, 10, 11, 100, 101, 300]);
      question.options = Array.from(
        { length: n },
        (_, j) => `${j} ${text(next() < 0.2 ? 400 : 40)}`,
      );
      if (next() < 0.5) {
        drafts[question.id] =
          type === 'choose-one'
            ? pick(question.options)
            : question.options.filter(() => next() < 0.3);
      }
    }
    if (type === 'yes-no' && next() < 0.5) drafts[question.id] = next() < 0.5;
    if (type === 'free-write' && next() < 0.5) drafts[question.id] = text(3000);
    if (next() < 0.3)
      question.preview = { type: pick(['markdown', 'ascii'] as const), content: text(20_000) };
    return question;
  });
  const at = new Date(1_700_000_000_000);
  const state = pick<BatchView['state']>([
    { kind: 'open' },
    { kind: 'open', note: text(2000) },
    { kind: 'submit-failed', error: text(3000) },
    { kind: 'answered', by: 'U12345', at },
    { kind: 'withdrawn', at },
  ]);
  return makeView(questions, { drafts, state, runName: text(200), runDir: `/runs/${text(600)}` });
}

describe('generated batches', () => {
  it('render within every limit, with decodable controls and working modals', () => {
    const next = random(7);
    let split = 0;
    let cut = 0;
    for (let round = 0; round < 150; round++) {
      const view = generate(next);
      const messages = renderBatchMessages(view);
      assertWithinLimits(messages);
      if (messages.length > 1) split++;
      if (JSON.stringify(messages).includes('Preview cut at')) cut++;
      const submits = elementsOf(messages).filter(
        (e) => e.element.action_id === ACTION_KINDS.submit,
      );
      assert.ok(submits.length <= 1);
      for (const { blockId, element } of elementsOf(messages)) {
        const action = {
          block_id: blockId,
          action_id: String(element.action_id),
          type: element.type,
          value: typeof element.value === 'string' ? element.value : undefined,
          selected_option: null,
          selected_options: [],
        };
        assert.ok(decodeAction(action, view.questions), `round ${round}: ${blockId}`);
      }
      for (const question of view.questions) {
        const request = { view, questionId: question.id };
        const modals = [renderPreviewModal(request).modal, renderOptionsModal(request)];
        if (question.type === 'free-write') modals.push(renderFreeWriteModal(request));
        for (const modal of modals) {
          assertModalOk(modal);
        }
      }
    }
    // the generator must reach the interesting shapes, or this test proves little
    assert.ok(split >= 5, `only ${split} batches split`);
    assert.ok(cut >= 5, `only ${cut} previews cut`);
  });
});
