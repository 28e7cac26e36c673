import type { InputBlock, KnownBlock, ModalView } from '@slack/types';
import type { Question } from '../../protocol/questions/question.js';
import { questionPath } from '../../protocol/run-folder.js';
import { CALLBACK_IDS, FREE_WRITE_INPUT } from '../controls/ids.js';
import { modalMetadata } from '../controls/modal-metadata.js';
import type { BatchView } from '../layout/batch-view.js';
import {
  mrkdwnContext,
  mrkdwnSection,
  multilineInput,
  plainContext,
  plainText,
} from '../layout/block-builders.js';
import { BLOCK_KIT_LIMITS, jsonBytes, VIEW_BYTES_BUDGET } from '../layout/block-kit-limits.js';
import { preformatted } from '../messages/render-preview.js';
import { promptSections } from '../messages/render-prompt.js';
import { escapeMrkdwn } from '../text/escape-mrkdwn.js';
import { showControls } from '../text/show-controls.js';
import { splitForEscaping, splitPlain, truncatePlain } from '../text/text-cut.js';

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
const sourceFile = (view: BatchView): string => questionPath(view.runDir, view.seq);

const LEAVE_EMPTY_HINT = 'Nothing to say? Save it empty: the agent gets an empty answer.';

/**
 * The modal for writing a free-write answer: the prompt, then a multi-line input holding the
 * current draft. Submission carries `private_metadata` naming the batch and question.
 */
export function renderFreeWriteModal({ view, questionId }: ModalRequest): ModalView {
  const { question, index } = findQuestion(view, questionId);
  const draft = view.drafts[questionId];
  const max = BLOCK_KIT_LIMITS.plainTextInputMax;
  const input = multilineInput(
    FREE_WRITE_INPUT.actionId,
    typeof draft === 'string' ? draft : undefined,
  );
  // Optional, so that saving it empty answers with no text: a deliberate answer, where a
  // question whose form was never saved still has none and holds Submit back.
  const block: InputBlock = {
    type: 'input',
    block_id: FREE_WRITE_INPUT.blockId,
    label: plainText('Your answer', BLOCK_KIT_LIMITS.inputLabel),
    element: input,
    optional: true,
    hint: plainText(LEAVE_EMPTY_HINT, BLOCK_KIT_LIMITS.inputHint),
  };
  if (typeof draft === 'string' && draft.length > max) {
    block.hint = plainText(
      `Your earlier answer had ${draft.length} characters; only the first ${max} fit here.`,
      BLOCK_KIT_LIMITS.inputHint,
    );
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

/**
 * The text typed into the free-write modal, from `view.state.values` of its submission; `''`
 * for an input left empty (Slack sends `null`) or holding only blanks, which say nothing more.
 */
export function readFreeWriteSubmission(
  viewStateValues: Record<string, Record<string, { value?: string | null }>>,
): string {
  const text = viewStateValues[FREE_WRITE_INPUT.blockId]?.[FREE_WRITE_INPUT.actionId]?.value;
  return text === undefined || text === null || text.trim() === '' ? '' : text;
}

/** Pieces as blocks, cut to the modal's room in blocks and bytes, and whether any were left out. */
interface Chunked {
  blocks: KnownBlock[];
  cut: boolean;
}

/**
 * Raw pieces as blocks, as many as fit in `room` blocks and `bytes` bytes of JSON; when they do
 * not all fit, the last block says how many characters were shown and where the whole text is.
 */
function chunkedBlocks(
  pieces: readonly string[],
  toBlock: (piece: string) => KnownBlock,
  room: { blocks: number; bytes: number },
  whereFull: string,
): Chunked {
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const note = (shownLength: number): KnownBlock =>
    mrkdwnContext(
      truncatePlain(
        `${escapeMrkdwn(`Showing the first ${shownLength} of ${total} characters.`)} ${whereFull}`,
        BLOCK_KIT_LIMITS.text,
      ),
    );
  const noteBytes = jsonBytes(note(total)) + 1;
  const blocks: KnownBlock[] = [];
  let bytes = 0;
  let shownLength = 0;
  for (const [index, piece] of pieces.entries()) {
    const block = toBlock(piece);
    const size = jsonBytes(block) + 1;
    const last = index === pieces.length - 1;
    const reserve = last ? { blocks: 0, bytes: 0 } : { blocks: 1, bytes: noteBytes };
    if (
      blocks.length + 1 + reserve.blocks > room.blocks ||
      bytes + size + reserve.bytes > room.bytes
    ) {
      return { blocks: [...blocks, note(shownLength)], cut: true };
    }
    blocks.push(block);
    bytes += size;
    shownLength += piece.length;
  }
  return { blocks, cut: false };
}

const escapedSection = (piece: string): KnownBlock => mrkdwnSection(escapeMrkdwn(piece));

/** Where the whole of a preview too long for a modal can be read: a file in the batch's thread. */
export type FullPreviewAt =
  /** the file is being attached; the modal is updated once it is */
  { kind: 'attaching' } | { kind: 'attached'; link: string } | { kind: 'failed'; reason: string };

/** The preview modal, and whether the preview had to be cut to fit it. */
export interface PreviewModal {
  modal: ModalView;
  cut: boolean;
}

/**
 * The whole of a question's preview in a modal (which has no markdown block): escaped mrkdwn
 * sections for markdown, preformatted rich text for ascii, as much as Slack takes in a modal
 * (100 blocks, 250 kB). A preview longer than that says where the whole of it is (`fullAt`).
 */
export function renderPreviewModal(
  { view, questionId }: ModalRequest,
  fullAt: FullPreviewAt = { kind: 'attaching' },
): PreviewModal {
  const { question, index } = findQuestion(view, questionId);
  const content = question.preview?.content ?? '';
  const heading = mrkdwnContext(
    escapeMrkdwn(truncatePlain(`Preview for question ${index + 1}: ${question.prompt}`, 300)),
  );
  const room = roomAfter([heading]);
  const size = BLOCK_KIT_LIMITS.sectionText;
  let body: Chunked;
  const whereFull = whereFullPreview(view, questionId, fullAt);
  if (content.trim() === '')
    body = { blocks: [plainContext('This question has no preview.')], cut: false };
  else if (question.preview?.type === 'markdown') {
    body = chunkedBlocks(splitForEscaping(content, size), escapedSection, room, whereFull);
  } else {
    // written out before the split, so that no chunk outgrows a section once shown
    body = chunkedBlocks(splitPlain(showControls(content), size), preformatted, room, whereFull);
  }
  const metadata = modalMetadata({ key: view.key, revision: view.revision, questionId }, index);
  const modal = previewOrOptionsModal(
    CALLBACK_IDS.preview,
    'Preview',
    [heading, ...body.blocks],
    metadata,
  );
  return { modal, cut: body.cut };
}

/** What the cut note of a preview modal says about the whole preview (mrkdwn). */
function whereFullPreview(view: BatchView, questionId: string, fullAt: FullPreviewAt): string {
  switch (fullAt.kind) {
    case 'attached':
      return `The whole preview is in the batch's thread as a file: <${escapeMrkdwn(fullAt.link)}|open the thread>.`;
    case 'attaching':
      return "The whole preview is being attached to the batch's thread as a file; this form links to it in a moment.";
    case 'failed':
      return escapeMrkdwn(
        `The whole preview could not be attached (${truncatePlain(fullAt.reason, 200)}); it is in ${sourceFile(view)} (question "${truncatePlain(questionId, 200)}").`,
      );
  }
}

/** Every option of a question with its full text, numbered, for options too long for buttons. */
export function renderOptionsModal({ view, questionId }: ModalRequest): ModalView {
  const { question, index } = findQuestion(view, questionId);
  const options = question.options ?? [];
  const heading = mrkdwnContext(
    escapeMrkdwn(truncatePlain(`Options of question ${index + 1}: ${question.prompt}`, 300)),
  );
  const lines = options.map((text, i) => `${i + 1}. ${text}`).join('\n');
  const whereFull = escapeMrkdwn(
    `All ${options.length} options are in ${sourceFile(view)} (question "${truncatePlain(questionId, 200)}").`,
  );
  const body =
    options.length === 0
      ? [plainContext('This question lists no options.')]
      : chunkedBlocks(
          splitForEscaping(lines, BLOCK_KIT_LIMITS.sectionText),
          escapedSection,
          roomAfter([heading]),
          whereFull,
        ).blocks;
  const metadata = modalMetadata({ key: view.key, revision: view.revision, questionId }, index);
  return previewOrOptionsModal(CALLBACK_IDS.options, 'Options', [heading, ...body], metadata);
}

/** A read-only modal with only a Close button. */
const previewOrOptionsModal = (
  callbackId: string,
  title: string,
  blocks: KnownBlock[],
  metadata: string,
): ModalView => modal(callbackId, title, blocks, metadata, { close: 'Close' });

/** What a modal's body may still take after `head`: blocks, and bytes of JSON. */
function roomAfter(head: readonly KnownBlock[]): { blocks: number; bytes: number } {
  return {
    blocks: BLOCK_KIT_LIMITS.modalBlocks - head.length,
    bytes: VIEW_BYTES_BUDGET - jsonBytes(head) - MODAL_FRAME_BYTES,
  };
}

// The modal around the blocks: type, callback id, title, close button, private metadata (3,000).
const MODAL_FRAME_BYTES = 4_000;
