import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from '@slack/bolt';
import type { BatchRecord } from '../../core/batch/batch-record.js';
import { modalMetadataKey } from '../../core/slack/controls/modal-metadata.js';
import { iterationOfMessage, readPresentation } from '../presenting/slack-presentation.js';
import { interactionOf } from '../transport/interaction-guard.js';
import type { ActionSource } from '../transport/interaction-payload.js';
import type { ModalSeal } from './modal-seal.js';

/** What a person is told when a control names another batch than its message's. */
export const NOT_THIS_BATCH =
  'This control does not belong to the message it was used in, so nothing was changed.';

/** The one log line for such an action, as for any other refused one: once per action. */
export const REFUSED_FOREIGN = 'action refused: it names a batch its message or form is not of';

/** Where the action of this interaction came from, as the interaction guard read it. */
export function sourceOfAction(context: Context): ActionSource | undefined {
  const interaction = interactionOf(context);
  return interaction && interaction.kind !== 'view' ? interaction.source : undefined;
}

/**
 * Whether an action from `source` may act on `record`'s batch: it came from one of the
 * batch's messages (the channel message, its replies, a hand-off's direct-message copy), as
 * the relay recorded them when it posted them, or from a form the relay opened for the batch
 * (its sealed metadata names it). A block id alone is the sender's word, not Slack's.
 */
export function isFromBatch(
  record: BatchRecord,
  source: ActionSource | undefined,
  seal: ModalSeal,
): boolean {
  if (source?.kind === 'message') {
    return iterationOfMessage(readPresentation(record.presentation), source) !== undefined;
  }
  if (source?.kind === 'view') {
    const metadata = seal.open(source.metadata);
    return metadata !== undefined && modalMetadataKey(metadata) === record.key;
  }
  return false;
}

/**
 * How long an action from a message its batch's record does not list yet waits for it, in
 * looks this far apart: 2 s in all (the click is acknowledged already).
 */
const CATCH_UP = { looks: 40, everyMs: 50 } as const;

/**
 * Looks the batch up for an action from `source`, and says whether the action belongs to it
 * (`foreign` is false for a batch the relay does not know: that is refused as unknown). A
 * message just posted may reach a person before the relay has recorded it (and, in shared
 * mode, before another relay has heard of it), so a message the record does not list is given
 * a moment to appear there before the action is called foreign.
 */
export async function lookupFromSource<T extends { record: BatchRecord }>(
  lookup: (key: string) => Promise<T | undefined>,
  key: string,
  source: ActionSource | undefined,
  seal: ModalSeal,
): Promise<{ found: T | undefined; foreign: boolean }> {
  let found = await lookup(key);
  const looks = source?.kind === 'message' ? CATCH_UP.looks : 0;
  for (let looked = 0; found && !isFromBatch(found.record, source, seal); looked += 1) {
    if (looked >= looks) return { found, foreign: true };
    await sleep(CATCH_UP.everyMs);
    found = await lookup(key);
  }
  return { found, foreign: false };
}
