import { elementsOf } from './normalize-blocks.js';
import { isJsonObject, type JsonObject } from './types.js';

/** Element types whose value the user's client tracks and reports in `state.values`. */
export const STATEFUL_ELEMENTS = [
  'static_select',
  'external_select',
  'multi_static_select',
  'multi_external_select',
  'users_select',
  'multi_users_select',
  'radio_buttons',
  'checkboxes',
  'plain_text_input',
] as const;

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

/** How a surface decides that a user's earlier input no longer applies. */
export type ResetPolicy =
  /** messages: any change to the block (by chat.update) resets what the user picked in it */
  | 'block_changed'
  /** views: input survives views.update while block_id, action_id and element type stay */
  | 'element_changed';

interface Remembered {
  blockJson: string;
  elementType: unknown;
  value: JsonObject;
}

/**
 * What each user's Slack client currently shows in interactive elements, per surface
 * (a message as seen by one user, or a view).
 */
export class ElementStateStore {
  private readonly surfaces = new Map<string, Map<string, Remembered>>();

  /** Records the value a user gave an element. */
  set(surfaceKey: string, block: JsonObject, element: JsonObject, value: JsonObject): void {
    const remembered = this.surfaces.get(surfaceKey) ?? new Map<string, Remembered>();
    remembered.set(slot(block.block_id, element.action_id), {
      blockJson: JSON.stringify(block),
      elementType: element.type,
      value: structuredClone(value),
    });
    this.surfaces.set(surfaceKey, remembered);
  }

  /** Forgets everything a surface held (a closed view, a deleted message). */
  clear(surfaceKey: string): void {
    this.surfaces.delete(surfaceKey);
  }

  /** The `state.values` a client would send for these blocks now. */
  stateValues(surfaceKey: string, blocks: readonly JsonObject[], policy: ResetPolicy): StateValues {
    const remembered = this.surfaces.get(surfaceKey);
    const values: StateValues = {};
    for (const block of blocks) {
      if (typeof block.block_id !== 'string') continue;
      for (const element of elementsOf(block)) {
        const initial = initialElementValue(element);
        if (!initial || typeof element.action_id !== 'string') continue;
        const entry = remembered?.get(slot(block.block_id, element.action_id));
        const stillValid =
          entry !== undefined &&
          (policy === 'block_changed'
            ? entry.blockJson === JSON.stringify(block)
            : entry.elementType === element.type);
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
