import type { IdSource } from './ids.js';
import { isJsonObject, type JsonObject } from './types.js';

/** Elements of a block that carry an action_id (and so user state or actions). */
export function elementsOf(block: JsonObject): JsonObject[] {
  if (block.type === 'actions' && Array.isArray(block.elements)) {
    return block.elements.filter(isJsonObject);
  }
  if (block.type === 'section' && isJsonObject(block.accessory)) return [block.accessory];
  if (block.type === 'input' && isJsonObject(block.element)) return [block.element];
  return [];
}

/**
 * Copies blocks the way Slack stores them: a block without `block_id` gets a generated one,
 * an interactive element without `action_id` gets a generated one. Apps then see those ids in
 * payloads, exactly as with real Slack.
 */
export function normalizeBlocks(blocks: readonly JsonObject[], ids: IdSource): JsonObject[] {
  return blocks.map((original) => {
    const block = structuredClone(original);
    if (block.block_id === undefined) block.block_id = ids.blockId();
    for (const element of elementsOf(block)) {
      if (element.type !== 'image' && element.action_id === undefined) {
        element.action_id = ids.blockId();
      }
    }
    return block;
  });
}
