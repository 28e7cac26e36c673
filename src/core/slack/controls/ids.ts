/**
 * Every id the relay gives what it puts in Slack, in one place: the action ids of its controls,
 * the block id scheme, the forms' callback ids and their inputs' ids, and the values buttons
 * carry. The renderer, the decoder, the listeners and the tests import them from here and spell
 * none. Every id starts with `o7` so the relay's handlers can claim its own interactions by
 * prefix. (Slack's own ids, `U…`, `C…`, `S…`, are another kind: see `slack-id-shapes.ts`.)
 */

const PREFIX = 'o7';
const SEPARATOR = '|';

/**
 * The controls on a question, by name; the id is the part of an action id before the first
 * `:`, and the question's index (and which button of several) follow it.
 */
export const QUESTION_CONTROLS = {
  choose: 'o7.choose',
  chooseMany: 'o7.choose-many',
  yesNo: 'o7.yes-no',
  freeWrite: 'o7.free-write',
  oneTap: 'o7.one-tap',
  showPreview: 'o7.show-preview',
  showOptions: 'o7.show-options',
  /** opens the modal for the text an envelope question's choice asks for */
  followUp: 'o7.follow-up',
  /** a one-tap answer that opens a form for an optional note first (see `noteOptions`) */
  note: 'o7.note',
} as const;

/**
 * The buttons of a whole batch, in its Submit block, by name. Each decodes to its name, its
 * batch and its value (see `decodeAction`), so a new one is added here and nowhere else in
 * the decoder.
 */
export const BATCH_BUTTONS = {
  submit: 'o7.submit',
  /** closes an envelope batch without answers */
  cancel: 'o7.cancel',
  /** opens the hand-off modal */
  handOff: 'o7.hand-off',
  /** "I'm on it" / "Release": who is answering (values: `CLAIM_VALUES`) */
  claim: 'o7.claim',
  /** puts the next reminder off an hour (shown once reminders have started) */
  snooze: 'o7.snooze',
  /** puts a held decision back before its answer file is written (shown while it is held) */
  undo: 'o7.undo',
} as const;
export type BatchButton = keyof typeof BATCH_BUTTONS;

/**
 * The controls of a channel's digest of quick batches (`core/digest`), by name: a line's
 * answer buttons (their block id names the line's batch, see `digestBlockId`) and Approve all.
 * They have a listener of their own, bound to the digest message rather than to a batch's.
 */
export const DIGEST_CONTROLS = {
  answer: 'o7.digest-answer',
  approveAll: 'o7.digest-approve-all',
  /** puts back a line's answer held for Undo */
  undo: 'o7.digest-undo',
  /** opens the form that pages through every line (value: the page) */
  showAll: 'o7.digest-show-all',
  /** another page of that form (value: the page) */
  page: 'o7.digest-page',
} as const;
export type DigestControl = (typeof DIGEST_CONTROLS)[keyof typeof DIGEST_CONTROLS];

/** Every control the relay renders, by name: what each interactive element does. */
export const ACTION_KINDS = { ...QUESTION_CONTROLS, ...BATCH_BUTTONS } as const;
export type ActionKind = (typeof ACTION_KINDS)[keyof typeof ACTION_KINDS];

const KNOWN_KINDS: ReadonlySet<string> = new Set(Object.values(ACTION_KINDS));
const BUTTON_NAMES: ReadonlyMap<string, BatchButton> = new Map(
  Object.entries(BATCH_BUTTONS).map(([name, id]) => [id, name as BatchButton]),
);

/** Values of the claim button: what pressing it does. */
export const CLAIM_VALUES = { claim: 'claim', release: 'release' } as const;

/** Matches action ids of these kinds, with or without suffixes (for `app.action(...)`). */
export function actionIdPattern(kinds: readonly string[]): RegExp {
  const names = kinds.map((kind) => kind.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^(?:${names.join('|')})(?::|$)`);
}

/** Matches the action ids of every control (for the one `app.action(...)` listener). */
export const CONTROL_ACTION_PATTERN = actionIdPattern(Object.values(ACTION_KINDS));

/** Matches the action ids of external selects (for `app.options(...)`). */
export const EXTERNAL_SELECT_ACTION_PATTERN = actionIdPattern([
  ACTION_KINDS.choose,
  ACTION_KINDS.chooseMany,
]);

/**
 * An action id: the kind, then suffixes that keep ids unique within a message
 * (the question index, and which button of several).
 */
export function actionId(
  kind: ActionKind | DigestControl,
  ...suffixes: (string | number)[]
): string {
  return [kind, ...suffixes].join(':');
}

/** The kind an action id names, or `undefined` for ids the relay did not render. */
export function actionKindOf(id: string): ActionKind | undefined {
  const kind = id.split(':', 1)[0] as string;
  return KNOWN_KINDS.has(kind) ? (kind as ActionKind) : undefined;
}

/** The name of the batch button an action kind is, or `undefined` for a question's control. */
export function batchButtonOf(kind: ActionKind): BatchButton | undefined {
  return BUTTON_NAMES.get(kind);
}

/** Where a question sits: its batch, the batch's revision and its index in the batch. */
export interface QuestionPlace {
  key: string;
  revision: string;
  questionIndex: number;
}

/** Which part of a question a block holds; the control block has no role. */
export const BLOCK_ROLES = { preview: 'preview', options: 'options', text: 'text' } as const;
export type BlockRole = (typeof BLOCK_ROLES)[keyof typeof BLOCK_ROLES];

/**
 * What a relay block id says. `questionIndex` is absent for the batch-wide Submit block.
 * `iteration` tells apart the versions of one message (see `stampIteration`); ids rendered
 * before a message is sent, and those of messages posted by older relays, have none.
 */
export interface ParsedBlockId {
  key: string;
  revision: string;
  questionIndex?: number;
  role?: BlockRole;
  submit?: true;
  /** a digest line's buttons (see `digestBlockId`) */
  digest?: true;
  iteration?: number;
}

/** Block id of a question's control block, or of one of its helper blocks (`role`). */
export function questionBlockId(
  key: string,
  revision: string,
  questionIndex: number,
  role?: BlockRole,
): string {
  const part = role === undefined ? `q${questionIndex}` : `q${questionIndex}.${role}`;
  return [PREFIX, key, revision, part].join(SEPARATOR);
}

/** Block id of the Submit button's block (which also holds Cancel on envelope batches). */
export function submitBlockId(key: string, revision: string): string {
  return [PREFIX, key, revision, 'submit'].join(SEPARATOR);
}

/** Block id of a digest line's buttons: the line's batch at the revision it shows. */
export function digestBlockId(key: string, revision: string): string {
  return [PREFIX, key, revision, 'digest'].join(SEPARATOR);
}

const QUESTION_PART = /^q(\d{1,6})(?:\.(preview|options|text))?$/;
const ITERATION_PART = /^i(0|[1-9]\d{0,8})$/;

/**
 * Reads a block id made by this module; `undefined` for anything else (blocks without ids get
 * Slack-generated ones). Parsed from both ends so a key containing `|` still round-trips.
 */
export function parseBlockId(blockId: string): ParsedBlockId | undefined {
  const parts = blockId.split(SEPARATOR);
  const stamp = ITERATION_PART.exec(parts[parts.length - 1] ?? '');
  if (stamp) parts.pop();
  if (parts.length < 4 || parts[0] !== PREFIX) return undefined;
  const part = parts[parts.length - 1] as string;
  const revision = parts[parts.length - 2] as string;
  const key = parts.slice(1, -2).join(SEPARATOR);
  if (key === '' || revision === '') return undefined;
  const iteration = stamp ? { iteration: Number.parseInt(stamp[1] as string, 10) } : {};
  if (part === 'submit') return { key, revision, submit: true, ...iteration };
  if (part === 'digest') return { key, revision, digest: true, ...iteration };
  const match = QUESTION_PART.exec(part);
  if (!match) return undefined;
  const questionIndex = Number.parseInt(match[1] as string, 10);
  const role = match[2] as BlockRole | undefined;
  return role === undefined
    ? { key, revision, questionIndex, ...iteration }
    : { key, revision, questionIndex, role, ...iteration };
}

/**
 * The block id with `iteration` stamped on it; ids the relay did not make stay as they are.
 * Slack clients keep a person's own pick in a block whose id survives an update, whatever the
 * new initial value says, so every version of a message that carries controls needs new ids.
 */
export function withIteration(blockId: string, iteration: number): string {
  const parsed = parseBlockId(blockId);
  if (!parsed) return blockId;
  const unstamped =
    parsed.iteration === undefined ? blockId : blockId.slice(0, blockId.lastIndexOf(SEPARATOR));
  return `${unstamped}${SEPARATOR}i${iteration}`;
}

/**
 * Modal callback ids (`app.view(...)`); the free-write, follow-up, note and hand-off modals
 * have a submit button.
 */
export const CALLBACK_IDS = {
  freeWrite: 'o7.free-write',
  followUp: 'o7.follow-up',
  note: 'o7.note',
  handOff: 'o7.hand-off',
  preview: 'o7.preview',
  options: 'o7.options',
  /** the digest's Approve all form */
  approveAll: 'o7.approve-all',
  /** the form that pages through every line of a digest */
  digestPages: 'o7.digest-pages',
} as const;

/** Block id prefix of the Approve all form's checkboxes, one block per ten batches. */
export const APPROVE_ALL_BLOCK = 'o7.approve-all.pick';

/** Block and action id of the free-write modal's text input, read back on submission. */
export const FREE_WRITE_INPUT = {
  blockId: 'o7.free-write.input',
  actionId: 'o7.free-write.value',
} as const;

/** Block and action id of the follow-up modal's text input, read back on submission. */
export const FOLLOW_UP_INPUT = {
  blockId: 'o7.follow-up.input',
  actionId: 'o7.follow-up.value',
} as const;

/** Block and action id of the note modal's text input, read back on submission. */
export const NOTE_INPUT = {
  blockId: 'o7.note.input',
  actionId: 'o7.note.value',
} as const;

/** Block and action ids of the hand-off modal's inputs, read back on submission. */
export const HAND_OFF_INPUTS = {
  user: { blockId: 'o7.hand-off.user', actionId: 'o7.hand-off.user-value' },
  note: { blockId: 'o7.hand-off.note', actionId: 'o7.hand-off.note-value' },
} as const;
