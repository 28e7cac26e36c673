import { DEFAULT_SIZE_CEILINGS, messageTooLong, viewTooLarge } from './size-ceilings.js';
import { SLACK_LIMITS } from './slack-limits.js';
import { isJsonObject, type JsonObject } from './types.js';
import { formatIssue, validateMessageBlocks, validateView } from './validate-blocks.js';

/**
 * Why Slack would refuse to post a message, by the same checks the stand-in applies to
 * `chat.postMessage` (Block Kit limits, the size ceiling, the text's length); empty when it
 * would post it. For tests of renderers that need no server.
 */
export function messageRefusals(message: { text: string; blocks: readonly unknown[] }): string[] {
  const refusals = validateMessageBlocks(message.blocks).map(formatIssue);
  const blocks = message.blocks.filter(isJsonObject);
  if (messageTooLong(blocks, DEFAULT_SIZE_CEILINGS)) refusals.push('msg_blocks_too_long');
  if (message.text.length > SLACK_LIMITS.message.text) refusals.push('msg_too_long');
  return refusals;
}

/** Why Slack would refuse to open a view (`views.open`, `push`, `update`); empty when it would. */
export function viewRefusals(view: JsonObject): string[] {
  const refusals = validateView(view).map(formatIssue);
  if (viewTooLarge(view, DEFAULT_SIZE_CEILINGS)) refusals.push('view_too_large');
  return refusals;
}
