import type { InputBlock, KnownBlock, ModalView } from '@slack/types';
import { envelopeExtras, picksWantingText } from '../../envelope/envelope-batch.js';
import type { Answer } from '../../protocol/questions/question.js';
import { CALLBACK_IDS, FOLLOW_UP_INPUT } from '../controls/ids.js';
import { modalMetadata } from '../controls/modal-metadata.js';
import type { BatchView } from '../layout/batch-view.js';
import {
  mrkdwnSection,
  multilineInput,
  plainContext,
  plainText,
} from '../layout/block-builders.js';
import { BLOCK_KIT_LIMITS } from '../layout/block-kit-limits.js';
import { headerBlocks, textHeading } from '../messages/render-envelope-question.js';
import { promptSections } from '../messages/render-prompt.js';
import { splitEscaped } from '../text/text-cut.js';

// The modal repeats the question for context; a very long one continues in the message.
const PROMPT_SECTIONS_IN_MODAL = 10;
const DESCRIPTION_SECTIONS_IN_MODAL = 20;

/** Which question the modal asks about, and the answer it is for (which may not be saved yet). */
export interface FollowUpModalRequest {
  view: BatchView;
  questionId: string;
  /** The choice the text goes with; the modal opens before a new choice is recorded. */
  answer: Answer | undefined;
}

/**
 * The modal asking for the text an envelope question's choice needs: the header and question,
 * each chosen option that asks for text with its description in full (the agent says there
 * what it wants), and a multi-line input holding the text typed so far.
 */
export function renderFollowUpModal({ view, questionId, answer }: FollowUpModalRequest): ModalView {
  const index = view.questions.findIndex((q) => q.id === questionId);
  const question = view.questions[index];
  if (!question) {
    throw new Error(
      `Question "${questionId}" is not in batch ${view.seq} of ${view.runDir}; render the follow-up modal only for question ids taken from the same batch view.`,
    );
  }
  const picks = picksWantingText(question, answer);
  const { descriptions } = envelopeExtras(question);
  const options = question.options ?? [];
  const prompt = promptSections(index, question.prompt);
  const blocks: KnownBlock[] = [
    ...headerBlocks(question),
    ...prompt.slice(0, PROMPT_SECTIONS_IN_MODAL),
  ];
  if (prompt.length > PROMPT_SECTIONS_IN_MODAL) {
    blocks.push(plainContext('The question continues in the message.'));
  }
  const chosen = picks.flatMap((label) => {
    const description = descriptions[options.indexOf(label)] ?? '';
    const text =
      description.trim() === '' ? `You chose: ${label}` : `You chose: ${label}\n${description}`;
    return splitEscaped(text, BLOCK_KIT_LIMITS.sectionText);
  });
  blocks.push(...chosen.slice(0, DESCRIPTION_SECTIONS_IN_MODAL).map((text) => mrkdwnSection(text)));

  const input = multilineInput(FOLLOW_UP_INPUT.actionId, view.envelope?.followUpText[questionId]);
  const field: InputBlock = {
    type: 'input',
    block_id: FOLLOW_UP_INPUT.blockId,
    label: plainText(textHeading(picks), BLOCK_KIT_LIMITS.inputLabel),
    element: input,
  };
  blocks.push(field);
  const metadata = modalMetadata({ key: view.key, revision: view.revision, questionId }, index);
  return {
    type: 'modal',
    callback_id: CALLBACK_IDS.followUp,
    title: plainText(textHeading(picks), BLOCK_KIT_LIMITS.viewTitle),
    submit: plainText('Save', BLOCK_KIT_LIMITS.viewSubmit),
    close: plainText('Cancel', BLOCK_KIT_LIMITS.viewClose),
    private_metadata: metadata,
    blocks,
  };
}

/** The text typed into the follow-up modal, from `view.state.values` of its submission. */
export function readFollowUpSubmission(
  viewStateValues: Record<string, Record<string, { value?: string | null }>>,
): string {
  return viewStateValues[FOLLOW_UP_INPUT.blockId]?.[FOLLOW_UP_INPUT.actionId]?.value ?? '';
}
