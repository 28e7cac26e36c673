import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Question } from '../../../src/core/protocol/question.js';
import {
  decodeAction,
  draftsFromState,
  type StateValues,
} from '../../../src/core/slack/decode-action.js';
import { renderBatchMessages } from '../../../src/core/slack/render-batch-messages.js';
import { elementsOf, KEY, makeView, REVISION } from './fixtures.js';

const questions: Question[] = [
  { id: 'format', type: 'choose-one', prompt: 'Format?', options: ['JSON', 'CSV', 'plain text'] },
  { id: 'tags', type: 'choose-many', prompt: 'Tags?', options: ['a', 'b', 'c'] },
  { id: 'ok', type: 'yes-no', prompt: 'OK?' },
  { id: 'why', type: 'free-write', prompt: 'Why?', preview: { type: 'ascii', content: 'x' } },
];
const ids = { key: KEY, revision: REVISION };
const block = (part: string) => `o7|${KEY}|${REVISION}|${part}`;

describe('decodeAction', () => {
  it('maps a choose-one index to the exact option, and a cleared select to undefined', () => {
    const base = { block_id: block('q0'), action_id: 'o7.choose:0', type: 'static_select' };
    assert.deepEqual(decodeAction({ ...base, selected_option: { value: '2' } }, questions), {
      kind: 'draft',
      ...ids,
      questionId: 'format',
      answer: 'plain text',
    });
    assert.deepEqual(decodeAction({ ...base, selected_option: null }, questions), {
      kind: 'draft',
      ...ids,
      questionId: 'format',
      answer: undefined,
    });
  });

  it('maps choose-many indices to options in question order; none selected clears', () => {
    const base = { block_id: block('q1'), action_id: 'o7.choose-many:1', type: 'checkboxes' };
    const picked = decodeAction(
      { ...base, selected_options: [{ value: '2' }, { value: '0' }] },
      questions,
    );
    assert.deepEqual(picked, { kind: 'draft', ...ids, questionId: 'tags', answer: ['a', 'c'] });
    const none = decodeAction({ ...base, selected_options: [] }, questions);
    assert.deepEqual(none, { kind: 'draft', ...ids, questionId: 'tags', answer: undefined });
  });

  it('rejects out-of-range or non-numeric indices', () => {
    const one = { block_id: block('q0'), action_id: 'o7.choose:0', type: 'static_select' };
    for (const value of ['3', '-1', '1.0', 'JSON', '01', '']) {
      assert.equal(
        decodeAction({ ...one, selected_option: { value } }, questions),
        undefined,
        value,
      );
    }
    const many = { block_id: block('q1'), action_id: 'o7.choose-many:1', type: 'checkboxes' };
    assert.equal(
      decodeAction({ ...many, selected_options: [{ value: '0' }, { value: '9' }] }, questions),
      undefined,
    );
  });

  it('decodes yes-no buttons, free-write, preview, options and submit', () => {
    const yes = decodeAction(
      { block_id: block('q2'), action_id: 'o7.yes-no:2:no', type: 'button', value: 'no' },
      questions,
    );
    assert.deepEqual(yes, { kind: 'draft', ...ids, questionId: 'ok', answer: false });
    const buttons: [string, string, object][] = [
      ['q3', 'o7.free-write:3', { kind: 'open-free-write', ...ids, questionId: 'why' }],
      ['q3.preview', 'o7.show-preview:3', { kind: 'show-preview', ...ids, questionId: 'why' }],
      ['q0.options', 'o7.show-options:0', { kind: 'show-options', ...ids, questionId: 'format' }],
      ['submit', 'o7.submit', { kind: 'submit', ...ids }],
    ];
    for (const [role, actionId, expected] of buttons) {
      assert.deepEqual(
        decodeAction({ block_id: block(role), action_id: actionId, type: 'button' }, questions),
        expected,
        actionId,
      );
    }
  });

  it('decodes one-tap answers for yes-no and choose-one', () => {
    const yesNo: Question[] = [{ id: 'go', type: 'yes-no', prompt: 'Go?' }];
    assert.deepEqual(
      decodeAction(
        { block_id: block('q0'), action_id: 'o7.one-tap:0:yes', type: 'button', value: 'yes' },
        yesNo,
      ),
      { kind: 'one-tap', ...ids, questionId: 'go', answer: true },
    );
    assert.deepEqual(
      decodeAction(
        { block_id: block('q0'), action_id: 'o7.one-tap:0:1', type: 'button', value: '1' },
        questions,
      ),
      { kind: 'one-tap', ...ids, questionId: 'format', answer: 'CSV' },
    );
    assert.equal(
      decodeAction(
        { block_id: block('q0'), action_id: 'o7.one-tap:0:7', type: 'button', value: '7' },
        questions,
      ),
      undefined,
    );
  });

  it('ignores foreign ids, missing questions and kinds that do not fit the question', () => {
    const cases = [
      { block_id: 'someone-else', action_id: 'o7.choose:0', type: 'static_select' },
      { block_id: block('q0'), action_id: 'their.action', type: 'button' },
      { block_id: block('q9'), action_id: 'o7.free-write:9', type: 'button' },
      { block_id: block('q0'), action_id: 'o7.free-write:0', type: 'button' },
      { block_id: block('q0'), action_id: 'o7.yes-no:0:yes', type: 'button', value: 'yes' },
      { block_id: block('q2'), action_id: 'o7.yes-no:2:maybe', type: 'button', value: 'maybe' },
      { block_id: block('q0'), action_id: 'o7.submit', type: 'button' },
    ];
    for (const action of cases)
      assert.equal(decodeAction(action, questions), undefined, JSON.stringify(action));
  });

  it('decodes every element the renderer produces', () => {
    const view = makeView(questions);
    for (const { blockId, element } of elementsOf(renderBatchMessages(view))) {
      const action = {
        block_id: blockId,
        action_id: String(element.action_id),
        type: element.type,
        value: typeof element.value === 'string' ? element.value : undefined,
        selected_option: { value: '0' },
        selected_options: [{ value: '0' }],
      };
      assert.ok(decodeAction(action, questions), `${blockId} ${element.action_id}`);
    }
  });
});

describe('draftsFromState', () => {
  const current = { ...ids, iteration: 4 };
  const stamped = (part: string, iteration: number) => `${block(part)}|i${iteration}`;

  it('reads the selections of the current version and leaves out empty ones and other batches', () => {
    const values: StateValues = {
      [stamped('q0', 4)]: {
        'o7.choose:0': { type: 'radio_buttons', selected_option: { value: '1' } },
      },
      [stamped('q1', 4)]: { 'o7.choose-many:1': { type: 'checkboxes', selected_options: [] } },
      [`o7|other.1|${REVISION}|q1|i4`]: {
        'o7.choose-many:1': { type: 'checkboxes', selected_options: [{ value: '0' }] },
      },
      [stamped('q0.preview', 4)]: { 'o7.show-preview:0': { type: 'button' } },
      random: { x: { type: 'plain_text_input', value: 'y' } },
    };
    assert.deepEqual(Object.fromEntries(draftsFromState(values, questions, current)), {
      format: 'CSV',
    });
  });

  it('leaves out what a screen still shows of an earlier version of the message', () => {
    const values: StateValues = {
      [stamped('q0', 3)]: {
        'o7.choose:0': { type: 'radio_buttons', selected_option: { value: '0' } },
      },
      [stamped('q1', 4)]: {
        'o7.choose-many:1': { type: 'checkboxes', selected_options: [{ value: '2' }] },
      },
      [block('q0')]: { 'o7.choose:0': { type: 'radio_buttons', selected_option: { value: '2' } } },
    };
    assert.deepEqual(Object.fromEntries(draftsFromState(values, questions, current)), {
      tags: ['c'],
    });
    // a message sent before ids were stamped is iteration 0
    assert.deepEqual(
      Object.fromEntries(draftsFromState(values, questions, { ...ids, iteration: 0 })),
      { format: 'plain text' },
    );
  });

  it('leaves out blocks of another revision, whatever their iteration', () => {
    const values: StateValues = {
      [`o7|${KEY}|${REVISION.slice(0, 1)}|q0|i4`]: {
        'o7.choose:0': { type: 'radio_buttons', selected_option: { value: '1' } },
      },
    };
    assert.equal(draftsFromState(values, questions, current).size, 0);
  });
});
