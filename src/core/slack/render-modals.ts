import { join } from 'node:path';
import type { InputBlock, KnownBlock, ModalView, PlainTextInput } from '@slack/types';
import { questionFileName } from '../protocol/qa-file-names.js';
import type { Question } from '../protocol/question.js';
import type { BatchView } from './batch-view.js';
import { mrkdwnContext, mrkdwnSection, plainContext, plainText } from './block-builders.js';
import { BLOCK_KIT_LIMITS } from './block-kit-limits.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { CALLBACK_IDS, FREE_WRITE_INPUT } from './ids.js';
import { modalMetadata } from './modal-metadata.js';
import { preformatted } from './render-preview.js';
import { promptSections } from './render-prompt.js';
import { safeCutPoint, splitForEscaping, splitPlain, truncatePlain } from './text-cut.js';

/** Callback id of the free-write modal, whose submission carries the answer. */
export const FREE_WRITE_CALLBACK_ID = CALLBACK_IDS.freeWrite;

/** Which question of which batch a modal is for. */
export interface ModalRequest {
  view: BatchView;
  questionId: string;
}

// Prompts in modals are context; past this many sections the message itself has the rest.
const PROMPT_SECTIONS_IN_MODAL = 10;

function findQuestion(view: BatchView, questionId: string): { question: Question; index: number } {
  const index = view.questions.findIndex((q) => q.id === questionId);
  const question = view.questions[index];
  if (!question) {
    throw new Error(
      `Question "${questionId}" is not in batch ${view.seq} of ${view.runDir}; ` +
        `it has ${view.questions.map((q) => `"${q.id}"`).join(', ') || 'no questions'}. ` +
        'Render modals only for question ids taken from the same batch view.',
    );
  }
  return { question, index };
}

function modal(
  callbackId: string,
  title: string,
  blocks: KnownBlock[],
  metadata: string,
  buttons: { submit?: string; close: string },
): ModalView {
  const view: ModalView = {
    type: 'modal',
    callback_id: callbackId,
    title: plainText(title, BLOCK_KIT_LIMITS.viewTitle),
    close: plainText(buttons.close, BLOCK_KIT_LIMITS.viewClose),
    private_metadata: metadata,
    blocks,
  };
  if (buttons.submit) view.submit = plainText(buttons.submit, BLOCK_KIT_LIMITS.viewSubmit);
  return view;
}

function promptBlocks(index: number, prompt: string): KnownBlock[] {
  const sections = promptSections(index, prompt);
  if (sections.length <= PROMPT_SECTIONS_IN_MODAL) return sections;
  return [
    ...sections.slice(0, PROMPT_SECTIONS_IN_MODAL),
    plainContext('The question continues in the message.'),
  ];
}

/** Where the full text of a question's preview and options can always be read. */
const sourceFile = (view: BatchView): string => join(view.runDir, 'qa', questionFileName(view.seq));

/**
 * The modal for writing a free-write answer: the prompt, then a multi-line input holding the
 * current draft. Submission carries `private_metadata` naming the batch and question.
 */
export function renderFreeWriteModal({ view, questionId }: ModalRequest): ModalView {
  const { question, index } = findQuestion(view, questionId);
  const draft = view.drafts[questionId];
  const max = BLOCK_KIT_LIMITS.plainTextInputMax;
  const input: PlainTextInput = {
    type: 'plain_text_input',
    action_id: FREE_WRITE_INPUT.actionId,
    multiline: true,
    max_length: max,
  };
  const block: InputBlock = {
    type: 'input',
    block_id: FREE_WRITE_INPUT.blockId,
    label: plainText('Your answer', BLOCK_KIT_LIMITS.inputLabel),
    element: input,
  };
  if (typeof draft === 'string' && draft !== '') {
    input.initial_value = draft.slice(0, safeCutPoint(draft, max));
    if (draft.length > max) {
      block.hint = plainText(
        `Your earlier answer had ${draft.length} characters; only the first ${max} fit here.`,
        BLOCK_KIT_LIMITS.inputHint,
      );
    }
  }
  const metadata = modalMetadata({ key: view.key, revision: view.revision, questionId }, index);
  return modal(
    CALLBACK_IDS.freeWrite,
    'Your answer',
    [...promptBlocks(index, question.prompt), block],
    metadata,
    {
      submit: 'Save',
      close: 'Cancel',
    },
  );
}

/** The text typed into the free-write modal, from `view.state.values` of its submission. */
export function readFreeWriteSubmission(
  viewStateValues: Record<string, Record<string, { value?: string | null }>>,
): string {
  return viewStateValues[FREE_WRITE_INPUT.blockId]?.[FREE_WRITE_INPUT.actionId]?.value ?? '';
}

/**
 * Raw pieces as blocks, at most `room` of them; when they do not all fit, the last block says
 * how many characters were shown and where the whole text is.
 */
function chunkedBlocks(
  pieces: readonly string[],
  toBlock: (piece: string) => KnownBlock,
  room: number,
  whereFull: string,
): KnownBlock[] {
  if (pieces.length <= room) return pieces.map(toBlock);
  const shown = pieces.slice(0, room - 1);
  const shownLength = shown.reduce((sum, piece) => sum + piece.length, 0);
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const note = `Showing the first ${shownLength} of ${total} characters. ${whereFull}`;
  return [
    ...shown.map(toBlock),
    mrkdwnContext(escapeMrkdwn(truncatePlain(note, BLOCK_KIT_LIMITS.text))),
  ];
}

const escapedSection = (piece: string): KnownBlock => mrkdwnSection(escapeMrkdwn(piece));

/**
 * The whole of a question's preview in a modal (which has no markdown block): escaped mrkdwn
 * sections for markdown, preformatted rich text for ascii, up to 100 blocks. A preview longer
 * than that says where the full text is.
 */
export function renderPreviewModal({ view, questionId }: ModalRequest): ModalView {
  const { question, index } = findQuestion(view, questionId);
  const content = question.preview?.content ?? '';
  const heading = mrkdwnContext(
    escapeMrkdwn(truncatePlain(`Preview for question ${index + 1}: ${question.prompt}`, 300)),
  );
  const whereFull = `The full preview is in ${sourceFile(view)} (question "${truncatePlain(questionId, 200)}").`;
  const room = BLOCK_KIT_LIMITS.modalBlocks - 1;
  const size = BLOCK_KIT_LIMITS.sectionText;
  let body: KnownBlock[];
  if (content.trim() === '') body = [plainContext('This question has no preview.')];
  else if (question.preview?.type === 'markdown') {
    body = chunkedBlocks(splitForEscaping(content, size), escapedSection, room, whereFull);
  } else body = chunkedBlocks(splitPlain(content, size), preformatted, room, whereFull);
  const metadata = modalMetadata({ key: view.key, revision: view.revision, questionId }, index);
  return modal(CALLBACK_IDS.preview, 'Preview', [heading, ...body], metadata, { close: 'Close' });
}

/** Every option of a question with its full text, numbered, for options too long for buttons. */
export function renderOptionsModal({ view, questionId }: ModalRequest): ModalView {
  const { question, index } = findQuestion(view, questionId);
  const options = question.options ?? [];
  const heading = mrkdwnContext(
    escapeMrkdwn(truncatePlain(`Options of question ${index + 1}: ${question.prompt}`, 300)),
  );
  const lines = options.map((text, i) => `${i + 1}. ${text}`).join('\n');
  const whereFull = `All ${options.length} options are in ${sourceFile(view)} (question "${truncatePlain(questionId, 200)}").`;
  const body =
    options.length === 0
      ? [plainContext('This question lists no options.')]
      : chunkedBlocks(
          splitForEscaping(lines, BLOCK_KIT_LIMITS.sectionText),
          escapedSection,
          BLOCK_KIT_LIMITS.modalBlocks - 1,
          whereFull,
        );
  const metadata = modalMetadata({ key: view.key, revision: view.revision, questionId }, index);
  return modal(CALLBACK_IDS.options, 'Options', [heading, ...body], metadata, { close: 'Close' });
}
