import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OTHER_OPTION } from '../../../../src/core/envelope/other-option.js';
import type { Question } from '../../../../src/core/protocol/questions/question.js';
import {
  ACTION_KINDS,
  actionId,
  CALLBACK_IDS,
  FOLLOW_UP_INPUT,
} from '../../../../src/core/slack/controls/ids.js';
import type { BatchView } from '../../../../src/core/slack/layout/batch-view.js';
import { renderBatchMessages } from '../../../../src/core/slack/messages/render-batch-messages.js';
import {
  readFollowUpSubmission,
  renderFollowUpModal,
} from '../../../../src/core/slack/views/render-follow-up-modal.js';
import {
  formatIssue,
  validateMessageBlocks,
  validateView,
} from '../../../support/fake-slack/index.js';
import { questionsOf, rateLimitQuestion, reposQuestion } from '../../envelope/envelope-samples.js';
import {
  assertModalOk,
  assertWithinLimits,
  blocksOf,
  elementsOf,
  makeView,
  textOf,
} from '../fixtures.js';

const envelopeView = (questions: Question[], overrides: Partial<BatchView> = {}): BatchView =>
  makeView(questions, { seq: 1, envelope: { followUpText: {} }, ...overrides });

function render(view: BatchView) {
  const messages = renderBatchMessages(view);
  assertWithinLimits(messages);
  for (const message of messages) {
    assert.deepEqual(validateMessageBlocks(message.blocks).map(formatIssue), []);
  }
  return messages;
}

const actionIds = (view: BatchView) =>
  elementsOf(render(view)).map(({ element }) => `${element.type} ${element.action_id}`);

describe('envelope batches in Slack', () => {
  it('show the header, every option with its full description, and Other… last', () => {
    const long = `${'A careful trade-off, spelled out. '.repeat(8)}(over 200 characters)`;
    const question = {
      ...rateLimitQuestion,
      options: [...rateLimitQuestion.options, { label: 'Per tenant', description: long }],
    };
    const messages = render(envelopeView(questionsOf([question])));
    const text = textOf(blocksOf(messages));
    assert.ok(text.includes('"*Rate limit*"'), 'the header as a bold label');
    assert.ok(
      text.includes(
        "*Token bucket per IP (Recommended)* — Simple, no shared state. Trade-off: NAT'd users share a bucket.",
      ),
    );
    assert.ok(text.includes(`*Per tenant* — ${long}`), 'a description past 75 characters in full');
    assert.ok(text.includes(`*${OTHER_OPTION}* — None of these: type your own answer.`));
    const [radio] = elementsOf(messages);
    assert.ok(radio);
    const labels = (radio.element.options as { text: { text: string } }[]).map((o) => o.text.text);
    assert.deepEqual(labels.slice(0, 1), ['Token bucket per IP (Recommended)']);
    assert.equal(labels.at(-1), OTHER_OPTION);
    assert.equal(messages[0]?.text.startsWith('Questions from an agent: How should rate'), true);
  });

  it('are never one-tap, and offer Cancel (with a confirmation) beside Submit', () => {
    const view = envelopeView(
      questionsOf([{ question: 'Go?', header: 'Go', options: [{ label: 'Yes' }] }]),
    );
    assert.deepEqual(actionIds(view), [
      `radio_buttons ${actionId(ACTION_KINDS.choose, 0)}`,
      `button ${ACTION_KINDS.submit}`,
      `button ${ACTION_KINDS.cancel}`,
    ]);
    const cancel = elementsOf(render(view)).at(-1)?.element;
    assert.ok(cancel);
    assert.equal(cancel.style, 'danger');
    assert.equal(
      (cancel.confirm as { title: { text: string } }).title.text,
      'Cancel these questions?',
    );
  });

  it('render valid controls for yes-no and free-write questions in a file that claims to be an envelope batch', () => {
    const view = envelopeView([
      { id: 'q1', type: 'yes-no', prompt: 'Ship?', header: 'Ship' },
      { id: 'q2', type: 'free-write', prompt: 'Why?' },
      { id: 'q3', type: 'choose-one', prompt: 'Which?', options: ['a', 'b'] },
    ] as Question[]);
    assert.deepEqual(actionIds(view), [
      `button ${actionId(ACTION_KINDS.yesNo, 0, 'yes')}`,
      `button ${actionId(ACTION_KINDS.yesNo, 0, 'no')}`,
      `button ${actionId(ACTION_KINDS.freeWrite, 1)}`,
      `radio_buttons ${actionId(ACTION_KINDS.choose, 2)}`,
      `button ${ACTION_KINDS.submit}`,
      `button ${ACTION_KINDS.cancel}`,
    ]);
    assert.match(textOf(render(view)), /\*Ship\*/);
  });

  it('escape agent text everywhere it is shown', () => {
    const evil = '<!channel> & <http://x|y>';
    const question = {
      question: `Ask ${evil}`,
      header: `Head ${evil}`,
      options: [{ label: `Label ${evil}`, description: `Follow up with a text ${evil}` }],
    };
    const questions = questionsOf([question]);
    const view = envelopeView(questions, {
      drafts: { q1: `Label ${evil}` },
      envelope: { followUpText: { q1: `Typed ${evil}` } },
    });
    // render() checks that no mrkdwn text carries an unescaped `<` or `&`
    const text = textOf(render(view));
    assert.ok(text.includes('Head &lt;!channel&gt; &amp; &lt;http://x|y&gt;'));
    const modal = renderFollowUpModal({ view, questionId: 'q1', answer: `Label ${evil}` });
    assertModalOk(modal);
  });

  it('keep a description of many thousand characters whole, over several sections', () => {
    const huge = 'word '.repeat(1500).trim();
    const question = {
      question: 'Which?',
      header: 'Big',
      options: [{ label: 'A', description: huge }],
    };
    const text = textOf(blocksOf(render(envelopeView(questionsOf([question])))));
    assert.equal(text.split('word').length - 1, 1500, 'every word is shown');
  });

  it('ask for text under a choice that needs it, then show the text with an Edit button', () => {
    const questions = questionsOf([reposQuestion]);
    const waiting = envelopeView(questions, { drafts: { q1: 'Multi-repo' } });
    assert.deepEqual(actionIds(waiting).slice(0, 2), [
      `radio_buttons ${actionId(ACTION_KINDS.choose, 0)}`,
      `button ${actionId(ACTION_KINDS.followUp, 0)}`,
    ]);
    assert.ok(textOf(render(waiting)).includes('*Multi-repo* asks for a few words from you'));

    const typed = envelopeView(questions, {
      drafts: { q1: 'Multi-repo' },
      envelope: { followUpText: { q1: 'web: <x> & y' } },
    });
    const text = textOf(render(typed));
    assert.ok(text.includes('*Your follow-up:*\\n>web: &lt;x&gt; &amp; y'));
    const edit = elementsOf(render(typed)).find(
      (e) => e.element.action_id === actionId(ACTION_KINDS.followUp, 0),
    );
    assert.ok(edit);
    assert.equal((edit.element.text as { text: string }).text, 'Edit text');

    const other = envelopeView(questions, {
      drafts: { q1: 'Single repo (Recommended if unsure)' },
      envelope: { followUpText: { q1: 'typed for another choice' } },
    });
    assert.ok(!textOf(render(other)).includes('typed for another choice'));
  });

  it('show answers and typed text when answered; no answers and who cancelled when cancelled', () => {
    const questions = questionsOf([reposQuestion]);
    const at = new Date('2026-05-01T10:00:00Z');
    const drafts = { q1: 'Multi-repo' };
    const envelope = { followUpText: { q1: 'web: /abs/web' } };
    const closed = (kind: 'answered' | 'cancelled') =>
      render(envelopeView(questions, { drafts, envelope, state: { kind, by: 'U0ALICE01', at } }));
    const answered = closed('answered');
    assert.deepEqual(elementsOf(answered), []);
    assert.ok(textOf(answered).includes('*Answer:*\\n>Multi-repo'));
    assert.ok(textOf(answered).includes('>web: /abs/web'));

    const cancelled = closed('cancelled');
    assert.deepEqual(elementsOf(cancelled), []);
    assert.ok(textOf(cancelled).includes('Cancelled by <@U0ALICE01>'));
    assert.ok(!textOf(cancelled).includes('>Multi-repo'), 'no answer is shown');
    assert.match(cancelled[0]?.text ?? '', /^Cancelled: Questions from an agent: /);
  });
});

describe('the follow-up modal', () => {
  it("repeats the question and the chosen option's description, and holds the text so far", () => {
    const questions = questionsOf([reposQuestion]);
    const view = envelopeView(questions, { envelope: { followUpText: { q1: 'web: /abs/web' } } });
    const modal = renderFollowUpModal({ view, questionId: 'q1', answer: 'Multi-repo' });
    assertModalOk(modal);
    assert.deepEqual(validateView(modal).map(formatIssue), []);
    assert.equal(modal.callback_id, CALLBACK_IDS.followUp);
    assert.equal(modal.title.text, 'Your follow-up');
    const text = textOf(modal.blocks);
    assert.ok(text.includes('*Repos*'));
    assert.ok(text.includes("asking for each additional repo's slug and absolute path"));
    const input = modal.blocks.at(-1) as { element: { initial_value?: string } };
    assert.equal(input.element.initial_value, 'web: /abs/web');
    assert.equal(
      readFollowUpSubmission({
        [FOLLOW_UP_INPUT.blockId]: { [FOLLOW_UP_INPUT.actionId]: { value: 'x' } },
      }),
      'x',
    );
  });

  it('asks for your own answer when Other… was chosen', () => {
    const view = envelopeView(questionsOf([rateLimitQuestion]));
    const modal = renderFollowUpModal({ view, questionId: 'q1', answer: OTHER_OPTION });
    assert.equal(modal.title.text, 'Your answer');
    assert.ok(textOf(modal.blocks).includes('None of these: type your own answer.'));
  });
});
