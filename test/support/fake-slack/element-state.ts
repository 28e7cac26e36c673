import { CHOICE_ELEMENTS } from './block-rules.js';
import { elementsOf } from './normalize-blocks.js';
import { isJsonObject, type JsonObject } from './types.js';

/** Element types whose value the user's client tracks and reports in `state.values`. */
export const STATEFUL_ELEMENTS = [...CHOICE_ELEMENTS, 'plain_text_input'] as const;

/** `state.values` as Slack sends it: block_id → action_id → value object. */
export type StateValues = Record<string, Record<string, JsonObject>>;

/** The value an element shows before the user touches it (from its `initial_*` field). */
export function initialElementValue(element: JsonObject): JsonObject | undefined {
  const type = element.type;
  switch (type) {
    case 'static_select':
    case 'external_select':
    case 'radio_buttons':
      return { type, selected_option: element.initial_option ?? null };
    case 'multi_static_select':
    case 'multi_external_select':
    case 'checkboxes':
      return { type, selected_options: element.initial_options ?? [] };
    case 'users_select':
      return { type, selected_user: element.initial_user ?? null };
    case 'multi_users_select':
      return { type, selected_users: element.initial_users ?? [] };
    case 'plain_text_input':
      return { type, value: element.initial_value ?? null };
    default:
      return undefined;
  }
}

interface Remembered {
  elementType: unknown;
  value: JsonObject;
}

/**
 * What each user's Slack client currently shows in interactive elements, per surface (a
 * message as one person sees it, or a view). Slack's clients keep what a person picked in an
 * element while its block_id, action_id and type stay, whatever an update sets as the initial
 * value (Block Kit reference: "If a message is updated, use a new block_id"; slackapi/bolt-js
 * #1920, #2766); a new block_id shows the initial value again.
 */
export class ElementStateStore {
  private readonly surfaces = new Map<string, Map<string, Remembered>>();

  /** Records the value a user gave an element. */
  set(surfaceKey: string, block: JsonObject, element: JsonObject, value: JsonObject): void {
    const remembered = this.surfaces.get(surfaceKey) ?? new Map<string, Remembered>();
    remembered.set(slot(block.block_id, element.action_id), {
      elementType: element.type,
      value: structuredClone(value),
    });
    this.surfaces.set(surfaceKey, remembered);
  }

  /** Forgets everything a surface held (a closed view, a deleted message). */
  clear(surfaceKey: string): void {
    this.surfaces.delete(surfaceKey);
  }

  /**
   * After an update of the surfaces whose keys start with `prefix` (one message, as each person
   * sees it): what people picked in blocks whose id is gone is forgotten, even if the id comes
   * back in a later update. Picks in blocks whose id stayed are kept.
   */
  keepBlocks(prefix: string, blocks: readonly JsonObject[]): void {
    const kept = new Set(blocks.map((block) => String(block.block_id)));
    for (const [key, remembered] of this.surfaces) {
      if (!key.startsWith(prefix)) continue;
      for (const name of remembered.keys()) {
        if (!kept.has(name.slice(0, name.indexOf('\u0000')))) remembered.delete(name);
      }
    }
  }

  /** The `state.values` a client would send for these blocks now. */
  stateValues(surfaceKey: string, blocks: readonly JsonObject[]): StateValues {
    const remembered = this.surfaces.get(surfaceKey);
    const values: StateValues = {};
    for (const block of blocks) {
      if (typeof block.block_id !== 'string') continue;
      for (const element of elementsOf(block)) {
        const initial = initialElementValue(element);
        if (!initial || typeof element.action_id !== 'string') continue;
        const entry = remembered?.get(slot(block.block_id, element.action_id));
        const stillValid = entry !== undefined && entry.elementType === element.type;
        const blockValues = values[block.block_id] ?? {};
        blockValues[element.action_id] = structuredClone(stillValid ? entry.value : initial);
        values[block.block_id] = blockValues;
      }
    }
    return values;
  }
}

/** The key of one element's state slot. */
const slot = (blockId: unknown, actionId: unknown): string =>
  `${String(blockId)}\u0000${String(actionId)}`;

/** True when an element value holds nothing (what a required input must not be). */
export function isEmptyValue(value: JsonObject | undefined): boolean {
  if (!value) return true;
  for (const key of ['selected_option', 'selected_user', 'value']) {
    if (key in value) return value[key] === null || value[key] === '';
  }
  for (const key of ['selected_options', 'selected_users']) {
    if (key in value) return !Array.isArray(value[key]) || (value[key] as unknown[]).length === 0;
  }
  return !isJsonObject(value);
}
