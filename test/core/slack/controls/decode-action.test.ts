import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Question } from '../../../../src/core/protocol/questions/question.js';
import {
  type DecodedAction,
  decodeAction,
  draftsFromState,
  type StateValues,
} from '../../../../src/core/slack/controls/decode-action.js';
import {
  ACTION_KINDS,
  actionId,
  BATCH_BUTTONS,
  CLAIM_VALUES,
  questionBlockId,
  submitBlockId,
  withIteration,
} from '../../../../src/core/slack/controls/ids.js';
import { renderBatchMessages } from '../../../../src/core/slack/messages/render-batch-messages.js';
import { questionsOf, reposQuestion } from '../../envelope/envelope-samples.js';
import { elementsOf, KEY, makeView, noteQuestion, REVISION } from '../fixtures.js';

const questions: Question[] = [
  { id: 'format', type: 'choose-one', prompt: 'Format?', options: ['JSON', 'CSV', 'plain text'] },
  { id: 'tags', type: 'choose-many', prompt: 'Tags?', options: ['a', 'b', 'c'] },
  { id: 'ok', type: 'yes-no', prompt: 'OK?' },
  { id: 'why', type: 'free-write', prompt: 'Why?', preview: { type: 'ascii', content: 'x' } },
];
const ids = { key: KEY, revision: REVISION };
const block = (index: number, role?: 'preview' | 'options') =>
  questionBlockId(KEY, REVISION, index, role);
const SUBMIT_BLOCK = submitBlockId(KEY, REVISION);
const { choose, chooseMany, yesNo, freeWrite, oneTap, showPreview, showOptions } = ACTION_KINDS;

describe('decodeAction', () => {
  it('maps a choose-one index to the exact option, and a cleared select to undefined', () => {
    const base = { block_id: block(0), action_id: actionId(choose, 0), type: 'static_select' };
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
    const base = { block_id: block(1), action_id: actionId(chooseMany, 1), type: 'checkboxes' };
    const picked = decodeAction(
      { ...base, selected_options: [{ value: '2' }, { value: '0' }] },
      questions,
    );
    assert.deepEqual(picked, { kind: 'draft', ...ids, questionId: 'tags', answer: ['a', 'c'] });
    const none = decodeAction({ ...base, selected_options: [] }, questions);
    assert.deepEqual(none, { kind: 'draft', ...ids, questionId: 'tags', answer: undefined });
  });

  it('rejects out-of-range or non-numeric indices', () => {
    const one = { block_id: block(0), action_id: actionId(choose, 0), type: 'static_select' };
    for (const value of ['3', '-1', '1.0', 'JSON', '01', '']) {
      assert.equal(
        decodeAction({ ...one, selected_option: { value } }, questions),
        undefined,
        value,
      );
    }
    const many = { block_id: block(1), action_id: actionId(chooseMany, 1), type: 'checkboxes' };
    assert.equal(
      decodeAction({ ...many, selected_options: [{ value: '0' }, { value: '9' }] }, questions),
      undefined,
    );
  });

  it('decodes yes-no buttons, free-write, preview and options', () => {
    const yes = decodeAction(
      { block_id: block(2), action_id: actionId(yesNo, 2, 'no'), type: 'button', value: 'no' },
      questions,
    );
    assert.deepEqual(yes, { kind: 'draft', ...ids, questionId: 'ok', answer: false });
    const buttons: [string, string, DecodedAction][] = [
      [block(3), actionId(freeWrite, 3), { kind: 'openFreeWrite', ...ids, questionId: 'why' }],
      [
        block(3, 'preview'),
        actionId(showPreview, 3),
        { kind: 'showPreview', ...ids, questionId: 'why' },
      ],
      [
        block(0, 'options'),
        actionId(showOptions, 0),
        { kind: 'showOptions', ...ids, questionId: 'format' },
      ],
    ];
    for (const [blockId, action, expected] of buttons) {
      assert.deepEqual(
        decodeAction({ block_id: blockId, action_id: action, type: 'button' }, questions),
        expected,
        action,
      );
    }
  });

  it("decodes the batch's buttons to their names in BATCH_BUTTONS, with their value", () => {
    const press = (button: string, value?: string) =>
      decodeAction({ block_id: SUBMIT_BLOCK, action_id: button, type: 'button', value }, questions);
    assert.deepEqual(press(BATCH_BUTTONS.submit), { kind: 'submit', ...ids, value: undefined });
    assert.deepEqual(press(BATCH_BUTTONS.cancel), { kind: 'cancel', ...ids, value: undefined });
    assert.deepEqual(press(BATCH_BUTTONS.handOff, 'hand-off'), {
      kind: 'handOff',
      ...ids,
      value: 'hand-off',
    });
    for (const value of [CLAIM_VALUES.claim, CLAIM_VALUES.release]) {
      assert.deepEqual(press(BATCH_BUTTONS.claim, value), { kind: 'claim', ...ids, value });
    }
    for (const [name, button] of Object.entries(BATCH_BUTTONS)) {
      assert.equal(press(button)?.kind, name, 'each decodes to its own name');
    }
  });

  it("decodes the batch's buttons without its questions, which may not be readable", () => {
    for (const [name, button] of Object.entries(BATCH_BUTTONS)) {
      const pressed = { block_id: SUBMIT_BLOCK, action_id: button, type: 'button' };
      assert.equal(decodeAction(pressed, [])?.kind, name, button);
    }
    const choice = { block_id: block(0), action_id: actionId(choose, 0), type: 'static_select' };
    assert.equal(decodeAction({ ...choice, selected_option: { value: '0' } }, []), undefined);
  });

  it("refuses the batch's buttons outside its Submit block", () => {
    for (const button of Object.values(BATCH_BUTTONS)) {
      for (const blockId of [block(0), block(3, 'preview'), 'someone-else']) {
        const action = { block_id: blockId, action_id: button, type: 'button' };
        assert.equal(decodeAction(action, questions), undefined, `${button} in ${blockId}`);
      }
    }
  });

  it('decodes one-tap answers for yes-no and choose-one', () => {
    const yesNoBatch: Question[] = [{ id: 'go', type: 'yes-no', prompt: 'Go?' }];
    assert.deepEqual(
      decodeAction(
        { block_id: block(0), action_id: actionId(oneTap, 0, 'yes'), type: 'button', value: 'yes' },
        yesNoBatch,
      ),
      { kind: 'oneTap', ...ids, questionId: 'go', answer: true },
    );
    assert.deepEqual(
      decodeAction(
        { block_id: block(0), action_id: actionId(oneTap, 0, 1), type: 'button', value: '1' },
        questions,
      ),
      { kind: 'oneTap', ...ids, questionId: 'format', answer: 'CSV' },
    );
    assert.equal(
      decodeAction(
        { block_id: block(0), action_id: actionId(oneTap, 0, 7), type: 'button', value: '7' },
        questions,
      ),
      undefined,
    );
  });

  it("decodes a note option's button as its form opening, and no note for another option", () => {
    const tap = (index: number) => ({
      block_id: block(0),
      action_id: actionId(ACTION_KINDS.note, 0, index),
      type: 'button',
      value: String(index),
    });
    assert.deepEqual(decodeAction(tap(1), [noteQuestion]), {
      kind: 'openNote',
      ...ids,
      questionId: 'permission',
      answer: 'Deny',
    });
    assert.equal(decodeAction(tap(0), [noteQuestion]), undefined, 'Allow takes no note');
    assert.equal(decodeAction(tap(1), questions), undefined, 'a question without note options');
  });

  it('ignores foreign ids, missing questions and kinds that do not fit the question', () => {
    const cases = [
      { block_id: 'someone-else', action_id: actionId(choose, 0), type: 'static_select' },
      { block_id: block(0), action_id: 'their.action', type: 'button' },
      { block_id: block(9), action_id: actionId(freeWrite, 9), type: 'button' },
      { block_id: block(0), action_id: actionId(freeWrite, 0), type: 'button' },
      { block_id: block(0), action_id: actionId(yesNo, 0, 'yes'), type: 'button', value: 'yes' },
      {
        block_id: block(2),
        action_id: actionId(yesNo, 2, 'maybe'),
        type: 'button',
        value: 'maybe',
      },
      { block_id: SUBMIT_BLOCK, action_id: actionId(freeWrite, 3), type: 'button' },
    ];
    for (const action of cases)
      assert.equal(decodeAction(action, questions), undefined, JSON.stringify(action));
  });

  it('decodes every element the renderer produces, and every control is among them', () => {
    const team = { handoffs: [] };
    const envelope = questionsOf([reposQuestion]);
    const views = [
      makeView(questions, { team }),
      makeView(questions, { team: { ...team, claimedBy: 'U0ALICE01' } }),
      makeView(questions, {
        team: { ...team, reminders: 1, nextReminderAt: '2026-01-05T10:00:00.000Z' },
      }),
      makeView([{ id: 'go', type: 'yes-no', prompt: 'Go?' }], { team }),
      makeView([{ id: 'go', type: 'yes-no', prompt: 'Go?' }], {
        team,
        drafts: { go: true },
        state: {
          kind: 'held',
          by: 'U0ALICE01',
          at: new Date('2026-01-05T10:00:00.000Z'),
          until: new Date('2026-01-05T10:00:10.000Z'),
        },
      }),
      makeView(envelope, { envelope: { followUpText: {} }, drafts: { q1: 'Multi-repo' } }),
      makeView([noteQuestion], { notes: { options: { permission: ['Deny'] }, typed: {} } }),
      makeView([
        {
          id: 'long',
          type: 'choose-one',
          prompt: 'Which, in full?',
          options: Array.from({ length: 20 }, (_, i) => `${i} ${'a long option '.repeat(14)}`),
          preview: { type: 'ascii', content: 'line of preview text\n'.repeat(2000) },
        },
      ]),
    ];
    const kinds = new Set<string>();
    for (const view of views) {
      for (const { blockId, element } of elementsOf(renderBatchMessages(view))) {
        const action = {
          block_id: blockId,
          action_id: String(element.action_id),
          type: element.type,
          value: typeof element.value === 'string' ? element.value : undefined,
          selected_option: { value: '0' },
          selected_options: [{ value: '0' }],
        };
        const decoded = decodeAction(action, view.questions);
        assert.ok(decoded, `${blockId} ${element.action_id}`);
        kinds.add(action.action_id.split(':')[0] as string);
      }
    }
    assert.deepEqual([...kinds].sort(), Object.values(ACTION_KINDS).sort());
  });
});

describe('draftsFromState', () => {
  const current = { ...ids, iteration: 4 };
  const stamped = (index: number, iteration: number, role?: 'preview') =>
    withIteration(block(index, role), iteration);
  const chosen = (value: string) => ({
    [actionId(choose, 0)]: { type: 'radio_buttons', selected_option: { value } },
  });
  const ticked = (...values: string[]) => ({
    [actionId(chooseMany, 1)]: {
      type: 'checkboxes',
      selected_options: values.map((value) => ({ value })),
    },
  });

  it('reads the selections of the current version and leaves out empty ones and other batches', () => {
    const values: StateValues = {
      [stamped(0, 4)]: chosen('1'),
      [stamped(1, 4)]: ticked(),
      [withIteration(questionBlockId('other.1', REVISION, 1), 4)]: ticked('0'),
      [stamped(0, 4, 'preview')]: { [actionId(showPreview, 0)]: { type: 'button' } },
      random: { x: { type: 'plain_text_input', value: 'y' } },
    };
    assert.deepEqual(Object.fromEntries(draftsFromState(values, questions, current)), {
      format: 'CSV',
    });
  });

  it('leaves out what a screen still shows of an earlier version of the message', () => {
    const values: StateValues = {
      [stamped(0, 3)]: chosen('0'),
      [stamped(1, 4)]: ticked('2'),
      [block(0)]: chosen('2'),
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
      [withIteration(questionBlockId(KEY, REVISION.slice(0, 1), 0), 4)]: chosen('1'),
    };
    assert.equal(draftsFromState(values, questions, current).size, 0);
  });
});
