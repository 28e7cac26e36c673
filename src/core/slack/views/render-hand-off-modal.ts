import type { ModalView } from '@slack/types';
import { CALLBACK_IDS, HAND_OFF_INPUTS } from '../controls/ids.js';
import { mrkdwnSection, plainText } from '../layout/block-builders.js';
import { BLOCK_KIT_LIMITS } from '../layout/block-kit-limits.js';
import { escapeMrkdwn } from '../text/escape-mrkdwn.js';
import { truncatePlain } from '../text/text-cut.js';

/** Longest hand-off note accepted; the thread reply shows it whole. */
const HAND_OFF_NOTE_MAX = 1000;

/** Which batch a hand-off modal is for, as kept in its `private_metadata`. */
export interface HandOffTarget {
  key: string;
  revision: string;
}

/** The hand-off modal: pick a teammate, add an optional note. */
export function renderHandOffModal(input: HandOffTarget & { title: string }): ModalView {
  const metadata: HandOffTarget = { key: input.key, revision: input.revision };
  return {
    type: 'modal',
    callback_id: CALLBACK_IDS.handOff,
    title: plainText('Hand off', BLOCK_KIT_LIMITS.viewTitle),
    submit: plainText('Hand off', BLOCK_KIT_LIMITS.viewSubmit),
    close: plainText('Cancel', BLOCK_KIT_LIMITS.viewClose),
    private_metadata: JSON.stringify(metadata),
    blocks: [
      mrkdwnSection(
        `*${escapeMrkdwn(truncatePlain(input.title, 200))}*\nThey get a direct message with the same questions and the answers chosen so far; either of you can answer.`,
      ),
      {
        type: 'input',
        block_id: HAND_OFF_INPUTS.user.blockId,
        label: plainText('Hand off to', BLOCK_KIT_LIMITS.inputLabel),
        element: {
          type: 'users_select',
          action_id: HAND_OFF_INPUTS.user.actionId,
          placeholder: plainText('Choose a teammate', 150),
        },
      },
      {
        type: 'input',
        block_id: HAND_OFF_INPUTS.note.blockId,
        optional: true,
        label: plainText('Note', BLOCK_KIT_LIMITS.inputLabel),
        element: {
          type: 'plain_text_input',
          action_id: HAND_OFF_INPUTS.note.actionId,
          multiline: true,
          max_length: HAND_OFF_NOTE_MAX,
          placeholder: plainText('What they should know (optional)', 150),
        },
      },
    ],
  };
}

/** Reads `private_metadata` written by {@link renderHandOffModal}; `undefined` if it is not ours. */
export function parseHandOffMetadata(text: string): HandOffTarget | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    const { key, revision } = value as Record<string, unknown>;
    return typeof key === 'string' && typeof revision === 'string' ? { key, revision } : undefined;
  } catch {
    return undefined;
  }
}

/** The picked teammate and the note from a submitted hand-off modal's state values. */
export function readHandOffSubmission(
  values: Record<string, Record<string, { selected_user?: string | null; value?: string | null }>>,
): { to: string | undefined; note: string | undefined } {
  const to = values[HAND_OFF_INPUTS.user.blockId]?.[HAND_OFF_INPUTS.user.actionId]?.selected_user;
  const note = values[HAND_OFF_INPUTS.note.blockId]?.[HAND_OFF_INPUTS.note.actionId]?.value;
  const trimmed = note?.trim();
  return { to: to ?? undefined, note: trimmed ? trimmed : undefined };
}
