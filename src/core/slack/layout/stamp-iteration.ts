import type { KnownBlock } from '@slack/types';
import { withIteration } from '../controls/ids.js';

/**
 * The message with `iteration` stamped on every relay block id, so that Slack clients drop what
 * people picked in the version before and show the message's initial values (the drafts).
 */
export function stampIteration<M extends { blocks: readonly unknown[] }>(
  message: M,
  iteration: number,
): M {
  const blocks = (message.blocks as KnownBlock[]).map((block) =>
    typeof block.block_id === 'string'
      ? { ...block, block_id: withIteration(block.block_id, iteration) }
      : block,
  );
  return { ...message, blocks };
}
