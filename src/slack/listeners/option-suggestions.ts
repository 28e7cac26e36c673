import type { App } from '@slack/bolt';
import { plainText } from '../../core/slack/block-builders.js';
import { BLOCK_KIT_LIMITS } from '../../core/slack/block-kit-limits.js';
import { parseBlockId } from '../../core/slack/decode-action.js';
import { EXTERNAL_SELECT_ACTION_PATTERN } from '../../core/slack/ids.js';
import { suggestOptions } from '../../core/slack/suggest-options.js';
import type { BatchActions } from '../../queue/batch-actions.js';
import { lookupBeforeAck } from './lookup-before-ack.js';

/**
 * Answers type-ahead searches in selects of more than 100 options; the ack is the answer, so
 * a batch that cannot be looked up gets an empty list.
 */
export function registerOptionSuggestions(app: App, deps: { actions: BatchActions }): void {
  app.options(EXTERNAL_SELECT_ACTION_PATTERN, async ({ ack, body }) => {
    const ids = parseBlockId(body.block_id);
    const looked = await lookupBeforeAck(deps.actions, ids?.key, () => ack({ options: [] }));
    if (!looked) return;
    const { found } = looked;
    const index = ids?.questionIndex;
    const question = index === undefined ? undefined : found?.batch?.questions[index];
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
