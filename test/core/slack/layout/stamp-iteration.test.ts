import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBlockId } from '../../../../src/core/slack/controls/ids.js';
import { stampIteration } from '../../../../src/core/slack/layout/stamp-iteration.js';
import { renderBatchMessages } from '../../../../src/core/slack/messages/render-batch-messages.js';
import { makeView } from '../fixtures.js';

test('every relay block id of a message carries the iteration; nothing else changes', () => {
  const [message] = renderBatchMessages(
    makeView([
      { id: 'a', type: 'choose-one', prompt: 'A?', options: ['x', 'y', 'z', 'w', 'v', 'u'] },
      { id: 'b', type: 'yes-no', prompt: 'B?', preview: { type: 'ascii', content: 'art' } },
    ]),
  );
  assert.ok(message);
  const stamped = stampIteration(message, 12);
  const ids = stamped.blocks.map((b) => b.block_id).filter((id) => id !== undefined);
  assert.ok(ids.length > 0);
  for (const id of ids) assert.equal(parseBlockId(id)?.iteration, 12, id);
  const unstamp = (blocks: typeof message.blocks) =>
    JSON.stringify(blocks).replace(/\|i\d+"/g, '"');
  assert.equal(unstamp(stamped.blocks), JSON.stringify(message.blocks));
  assert.equal(stamped.text, message.text);
  // stamping again replaces the iteration rather than adding one
  const again = stampIteration(stamped, 13);
  for (const block of again.blocks) {
    if (block.block_id) assert.match(block.block_id, /\|q\d+(\.\w+)?\|i13$|\|submit\|i13$/);
  }
});
