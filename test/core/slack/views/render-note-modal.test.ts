import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notesFor } from '../../../../src/core/protocol/questions/note-options.js';
import type { Question } from '../../../../src/core/protocol/questions/question.js';
import { CALLBACK_IDS, NOTE_INPUT } from '../../../../src/core/slack/controls/ids.js';
import { parseModalMetadata } from '../../../../src/core/slack/controls/modal-metadata.js';
import { renderBatchMessages } from '../../../../src/core/slack/messages/render-batch-messages.js';
import {
  readNoteSubmission,
  renderNoteModal,
} from '../../../../src/core/slack/views/render-note-modal.js';
import {
  assertModalOk,
  elementsOf,
  KEY,
  makeView,
  noteQuestion,
  REVISION,
  textOf,
} from '../fixtures.js';

const question = noteQuestion;
const notes = { options: { permission: ['Deny'] }, typed: {} };

describe('a one-tap answer that takes a note', () => {
  it('shows as a button marked with an ellipsis that opens its form; the others answer at once', () => {
    const buttons = elementsOf(renderBatchMessages(makeView([question], { notes }))).map(
      ({ element }) => [(element.text as { text: string }).text, element.action_id],
    );
    assert.deepEqual(buttons, [
      ['Allow', 'o7.one-tap:0:0'],
      ['Deny…', 'o7.note:0:1'],
      ['Deny and stop Claude', 'o7.one-tap:0:2'],
    ]);
  });

  it('is an ordinary one-tap answer on a batch that is not the relay’s (no notes in its view)', () => {
    const actions = elementsOf(renderBatchMessages(makeView([question]))).map(
      ({ element }) => element.action_id,
    );
    assert.deepEqual(actions, ['o7.one-tap:0:0', 'o7.one-tap:0:1', 'o7.one-tap:0:2']);
  });

  it('opens a form named for the answer, with an optional note, that names its batch and option', () => {
    const modal = renderNoteModal({
      view: makeView([question]),
      questionId: 'permission',
      answer: 'Deny',
    });
    assertModalOk(modal);
    assert.equal(modal.callback_id, CALLBACK_IDS.note);
    assert.equal(modal.title.text, 'Deny');
    assert.equal(modal.submit?.text, 'Deny', 'submitting gives the answer');
    assert.equal(modal.close?.text, 'Back');
    const input = modal.blocks.find((b) => b.block_id === NOTE_INPUT.blockId);
    assert.equal((input as { optional?: boolean }).optional, true);
    assert.match(textOf(modal.blocks), /Claude Code wants to use Bash\./);
    assert.deepEqual(parseModalMetadata(modal.private_metadata ?? '', [question]), {
      key: KEY,
      revision: REVISION,
      questionId: 'permission',
      option: 1,
    });
    assert.throws(
      () =>
        renderNoteModal({ view: makeView([question]), questionId: 'permission', answer: 'Maybe' }),
      /"Maybe" is not an option of question "permission"/,
    );
  });

  it('reads the note typed, blank as none', () => {
    const typed = (value: string | null) => ({
      [NOTE_INPUT.blockId]: { [NOTE_INPUT.actionId]: { value } },
    });
    assert.equal(readNoteSubmission(typed('frozen until Monday')), 'frozen until Monday');
    assert.equal(readNoteSubmission(typed('  \n ')), '');
    assert.equal(readNoteSubmission(typed(null)), '');
  });

  it('shows the note under the answer once answered', () => {
    const at = new Date('2026-12-06T10:00:00Z');
    const view = makeView([question], {
      drafts: { permission: 'Deny' },
      notes: { ...notes, typed: { permission: 'frozen until Monday' } },
      state: { kind: 'answered', by: 'U0ALICE01', at },
    });
    assert.match(textOf(renderBatchMessages(view)), />Deny\\n>Note: frozen until Monday/);
  });
});

describe('notesFor', () => {
  it('keeps the note of a chosen note option, not one left from another choice or blank', () => {
    const other: Question = { id: 'q2', type: 'choose-one', prompt: 'P', options: ['A', 'B'] };
    assert.deepEqual(
      {
        ...notesFor(
          [question, other],
          { permission: 'Deny', q2: 'A' },
          { permission: 'why', q2: 'x' },
        ),
      },
      { permission: 'why' },
    );
    assert.deepEqual(
      { ...notesFor([question], { permission: 'Allow' }, { permission: 'why' }) },
      {},
    );
    assert.deepEqual({ ...notesFor([question], { permission: 'Deny' }, { permission: ' ' }) }, {});
  });
});
