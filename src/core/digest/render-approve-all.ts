import path from 'node:path';
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { APPROVE_ALL_BLOCK, CALLBACK_IDS } from '../slack/controls/ids.js';
import { mrkdwnContext, mrkdwnSection, plainText } from '../slack/layout/block-builders.js';
import { BLOCK_KIT_LIMITS } from '../slack/layout/block-kit-limits.js';
import { escapeMrkdwn } from '../slack/text/escape-mrkdwn.js';
import { mentionOf } from '../slack/text/mention.js';
import { truncatePlain } from '../slack/text/text-cut.js';
import type { DigestItem } from './digest-item.js';

/** The action id of every checkbox group of the form. */
export const APPROVE_ALL_PICK = 'o7.approve-all.pick';

/** What the form's sealed metadata says: the channel whose digest opened it, and when. */
export interface ApproveAllTarget {
  channel: string;
  /** ISO time the form was opened: a batch made after it was never listed in it */
  at: string;
}

/** A batch picked in the form: its key and the revision the form listed. */
export interface PickedBatch {
  key: string;
  revision: string;
}

/** Why a quick batch is listed but cannot be ticked, or undefined when it can. */
export function leftOutBecause(item: DigestItem, user: string): string | undefined {
  if (item.quick.approve === undefined) return 'a choice with no default answer';
  if (item.claimedBy !== undefined && item.claimedBy !== user) {
    return `${mentionOf(item.claimedBy)} is on it`;
  }
  return undefined;
}

const pickValue = (item: DigestItem) => `${item.key}|${item.revision}`;

/** One checkbox: the batch and the answer it gets, its question under it. */
function pickOption(item: DigestItem): PlainTextOption {
  const answer = item.quick.approve?.label ?? '';
  const room = BLOCK_KIT_LIMITS.optionText - answer.length - 3;
  return {
    text: plainText(`${truncatePlain(item.title, room)} → ${answer}`, BLOCK_KIT_LIMITS.optionText),
    description: plainText(
      item.quick.question.prompt.replace(/\s+/g, ' '),
      BLOCK_KIT_LIMITS.optionDescription,
    ),
    value: pickValue(item),
  };
}

/** Blocks a form keeps for its head and for saying what it could not list. */
const BLOCKS_KEPT = 3;

/**
 * The Approve all form: every quick batch of the channel with a default answer, grouped by
 * project, each ticked with the answer it gets ("Yes", "Allow"); unticking one leaves it open.
 * Those `user` cannot approve (a choice without a default, a batch someone else is on) are
 * named under the list with why. A list longer than a form holds names how many it left out.
 */
export function renderApproveAll(
  all: readonly DigestItem[],
  user: string,
  target: ApproveAllTarget,
): ModalView {
  // a held answer is given already: Undo on its line is what can change it
  const items = all.filter((item) => item.held === undefined);
  const pickable = items.filter((item) => leftOutBecause(item, user) === undefined);
  const groups = new Map<string, DigestItem[]>();
  for (const item of pickable)
    groups.set(item.project, [...(groups.get(item.project) ?? []), item]);
  const blocks: KnownBlock[] = [
    mrkdwnSection(
      `Answer these ${pickable.length} batch${pickable.length === 1 ? '' : 'es'} as shown? Untick any to leave it open. A batch answered elsewhere meanwhile is skipped.`,
    ),
  ];
  let listed = 0;
  let group = 0;
  for (const [project, members] of groups) {
    for (let from = 0; from < members.length; from += BLOCK_KIT_LIMITS.checkboxOptions) {
      if (blocks.length >= BLOCK_KIT_LIMITS.modalBlocks - BLOCKS_KEPT) break;
      const options = members.slice(from, from + BLOCK_KIT_LIMITS.checkboxOptions).map(pickOption);
      blocks.push({
        type: 'input',
        block_id: `${APPROVE_ALL_BLOCK}.${group}`,
        optional: true,
        label: plainText(
          from === 0 ? path.basename(project) || project : `${path.basename(project)} (more)`,
          BLOCK_KIT_LIMITS.inputLabel,
        ),
        element: {
          type: 'checkboxes',
          action_id: APPROVE_ALL_PICK,
          options,
          initial_options: options,
        },
      });
      group += 1;
      listed += options.length;
    }
  }
  if (listed < pickable.length) {
    blocks.push(
      mrkdwnContext(
        `${pickable.length - listed} more are not listed: a form holds no more. Approve these, then open Approve all again.`,
      ),
    );
  }
  const left = items.filter((item) => leftOutBecause(item, user) !== undefined);
  if (left.length > 0) {
    const lines = left
      .slice(0, 10)
      .map(
        (item) => `• ${escapeMrkdwn(truncatePlain(item.title, 80))}: ${leftOutBecause(item, user)}`,
      );
    const more = left.length > 10 ? `\n…and ${left.length - 10} more` : '';
    blocks.push(mrkdwnContext(`*Not included:*\n${lines.join('\n')}${more}`));
  }
  return {
    type: 'modal',
    callback_id: CALLBACK_IDS.approveAll,
    title: plainText('Approve all', BLOCK_KIT_LIMITS.viewTitle),
    submit: plainText('Confirm', BLOCK_KIT_LIMITS.viewSubmit),
    close: plainText('Cancel', BLOCK_KIT_LIMITS.viewClose),
    private_metadata: JSON.stringify(target),
    blocks,
  };
}

/** Reads the form's metadata (once its seal is checked); undefined if it is not this form's. */
export function parseApproveAllTarget(text: string | undefined): ApproveAllTarget | undefined {
  try {
    const value: unknown = JSON.parse(text ?? '');
    const { channel, at } = (value ?? {}) as Record<string, unknown>;
    return typeof channel === 'string' && typeof at === 'string' ? { channel, at } : undefined;
  } catch {
    return undefined;
  }
}

type StateValues = Record<
  string,
  Record<string, { selected_options?: { value: string }[] | null }>
>;

/** The batches ticked in a submitted form, each once. */
export function readApproveAllPicks(values: StateValues): PickedBatch[] {
  const picked = new Map<string, PickedBatch>();
  for (const [blockId, actions] of Object.entries(values)) {
    if (!blockId.startsWith(`${APPROVE_ALL_BLOCK}.`)) continue;
    for (const option of actions[APPROVE_ALL_PICK]?.selected_options ?? []) {
      const cut = option.value.lastIndexOf('|');
      if (cut <= 0) continue;
      const key = option.value.slice(0, cut);
      picked.set(key, { key, revision: option.value.slice(cut + 1) });
    }
  }
  return [...picked.values()];
}
