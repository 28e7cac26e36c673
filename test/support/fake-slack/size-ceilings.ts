import { isJsonObject, type JsonObject } from './types.js';

/**
 * Slack's size ceilings that its documentation does not state. `msg_blocks_too_long` comes well
 * under the per-field limits: users measured 13,297 characters of text in a few markdown blocks,
 * about 125 less for each block more (slackapi/bolt-js#2509), and one saw 11,341 refused
 * (#2867). Views (`views.open`, `push`, `update`, `publish`, response_action views) are refused
 * with `view_too_large` past 250 kB of JSON.
 */
export interface SizeCeilings {
  /** most characters of text a message's blocks may hold, before block costs */
  messageText: number;
  /** what each block takes off that */
  perBlock: number;
  /** most bytes of a view's JSON */
  viewBytes: number;
}

/** The ceilings as reported; tests lower them to exercise the relay's fallbacks. */
export const DEFAULT_SIZE_CEILINGS: SizeCeilings = {
  messageText: 13_297 + 2 * 125,
  perBlock: 125,
  viewBytes: 250_000,
};

/** Characters of text in blocks, as Slack seems to count them: every `text` string, anywhere. */
export function textCharacters(value: unknown): number {
  if (Array.isArray(value))
    return value.reduce((sum: number, item) => sum + textCharacters(item), 0);
  if (!isJsonObject(value)) return 0;
  let sum = 0;
  for (const [name, child] of Object.entries(value)) {
    sum += name === 'text' && typeof child === 'string' ? [...child].length : textCharacters(child);
  }
  return sum;
}

/** Whether a message's blocks are over the ceiling (`msg_blocks_too_long`). */
export const messageTooLong = (blocks: readonly JsonObject[], ceilings: SizeCeilings): boolean =>
  textCharacters(blocks) + ceilings.perBlock * blocks.length > ceilings.messageText;

/** Whether a view is over the ceiling (`view_too_large`). */
export const viewTooLarge = (view: JsonObject, ceilings: SizeCeilings): boolean =>
  Buffer.byteLength(JSON.stringify(view), 'utf8') > ceilings.viewBytes;
