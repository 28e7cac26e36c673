import type { InputBlock, KnownBlock, ModalView } from '@slack/types';
import { CALLBACK_IDS, NOTE_INPUT } from '../controls/ids.js';
import { modalMetadata } from '../controls/modal-metadata.js';
import type { BatchView } from '../layout/batch-view.js';
import { multilineInput, plainContext, plainText } from '../layout/block-builders.js';
import { BLOCK_KIT_LIMITS } from '../layout/block-kit-limits.js';
import { promptSections } from '../messages/render-prompt.js';

// The form repeats the question for context; a very long one continues in the message.
const PROMPT_SECTIONS_IN_MODAL = 10;

/** Which answer the note form gives, to which question of which batch. */
export interface NoteModalRequest {
  view: BatchView;
  questionId: string;
  /** the option tapped, one of the question's note options */
  answer: string;
}

/**
 * The form a one-tap answer that takes a note opens: the question, an optional multi-line
 * note the agent reads with the answer, and a submit button named for the answer, which
 * gives it. Closing the form answers nothing.
 */
export function renderNoteModal({ view, questionId, answer }: NoteModalRequest): ModalView {
  const index = view.questions.findIndex((q) => q.id === questionId);
  const question = view.questions[index];
  const option = question?.options?.indexOf(answer) ?? -1;
  if (!question || option < 0) {
    throw new Error(
      `"${answer}" is not an option of question "${questionId}" in batch ${view.seq} of ${view.runDir}; render the note modal only for an answer taken from the same batch view.`,
    );
  }
  const prompt = promptSections(index, question.prompt);
  const blocks: KnownBlock[] = prompt.slice(0, PROMPT_SECTIONS_IN_MODAL);
  if (prompt.length > PROMPT_SECTIONS_IN_MODAL) {
    blocks.push(plainContext('The question continues in the message.'));
  }
  const field: InputBlock = {
    type: 'input',
    block_id: NOTE_INPUT.blockId,
    label: plainText('A note for the agent', BLOCK_KIT_LIMITS.inputLabel),
    element: multilineInput(NOTE_INPUT.actionId, undefined),
    optional: true,
    hint: plainText(
      `The agent reads it with your answer, ${answer}. Leave it empty to answer without one.`,
      BLOCK_KIT_LIMITS.inputHint,
    ),
  };
  blocks.push(field);
  const target = { key: view.key, revision: view.revision, questionId, option };
  return {
    type: 'modal',
    callback_id: CALLBACK_IDS.note,
    title: plainText(answer, BLOCK_KIT_LIMITS.viewTitle),
    submit: plainText(answer, BLOCK_KIT_LIMITS.viewSubmit),
    close: plainText('Back', BLOCK_KIT_LIMITS.viewClose),
    private_metadata: modalMetadata(target, index),
    blocks,
  };
}

/** The note typed into the note modal; `''` for one left empty or holding only blanks. */
export function readNoteSubmission(
  viewStateValues: Record<string, Record<string, { value?: string | null }>>,
): string {
  const text = viewStateValues[NOTE_INPUT.blockId]?.[NOTE_INPUT.actionId]?.value;
  return text === undefined || text === null || text.trim() === '' ? '' : text;
}
