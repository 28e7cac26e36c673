import type { App } from '@slack/bolt';
import { EXTERNAL_SELECT_ACTION_PATTERN, parseBlockId } from '../../core/slack/controls/ids.js';
import { suggestOptions } from '../../core/slack/controls/suggest-options.js';
import { plainText } from '../../core/slack/layout/block-builders.js';
import { BLOCK_KIT_LIMITS } from '../../core/slack/layout/block-kit-limits.js';
import type { BatchActions } from '../../queue/actions/batch-actions.js';
import { isFromBatch, sourceOfAction } from '../access/action-binding.js';
import type { ModalSeal } from '../access/modal-seal.js';
import { lookupBeforeAck } from './lookup-before-ack.js';

/**
 * Answers type-ahead searches in selects of more than 100 options, from the batch searched in;
 * the ack is the answer, so a batch that cannot be looked up gets an empty list.
 */
export function registerOptionSuggestions(
  app: App,
  deps: { actions: BatchActions; seal: ModalSeal },
): void {
  app.options(EXTERNAL_SELECT_ACTION_PATTERN, async ({ ack, body, context }) => {
    const ids = parseBlockId(body.block_id);
    const looked = await lookupBeforeAck(deps.actions, ids?.key, () => ack({ options: [] }));
    if (!looked) return;
    const { found } = looked;
    const index = ids?.questionIndex;
    // the options of the batch of the message searched in, and no other's (3 s: no waiting)
    const own = found && isFromBatch(found.record, sourceOfAction(context), deps.seal);
    const question = index === undefined || !own ? undefined : found?.batch?.questions[index];
    if (!question) {
      await ack({ options: [] });
      return;
    }
    const options = suggestOptions(question, body.value ?? '').map((o) => ({
      text: plainText(o.text, BLOCK_KIT_LIMITS.optionText),
      value: o.value,
    }));
    await ack({ options });
  });
}
