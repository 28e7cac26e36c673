import { noteOptions } from '../../protocol/questions/note-options.js';
import {
  type Answer,
  type Question,
  TYPES_WITH_OPTIONS,
} from '../../protocol/questions/question.js';
import {
  ACTION_KINDS,
  actionKindOf,
  type BatchButton,
  batchButtonOf,
  parseBlockId,
} from './ids.js';

/** The parts of a `block_actions` action the decoder reads. */
export interface ActionPayload {
  block_id: string;
  action_id: string;
  type: string;
  value?: string | null;
  selected_option?: { value: string } | null;
  selected_options?: { value: string }[] | null;
}

/**
 * A press of one of the batch's own buttons (`BATCH_BUTTONS`), named as there: Submit, Cancel
 * on an envelope batch, the team controls; `value` is the button's (the claim's `CLAIM_VALUES`).
 */
export type ButtonPress = {
  [B in BatchButton]: { kind: B; key: string; revision: string; value: string | undefined };
}[BatchButton];

/** What a click or selection on a batch message means, for every control the relay renders. */
export type DecodedAction =
  /** a selection changed; `answer` undefined means it was cleared */
  | { kind: 'draft'; key: string; revision: string; questionId: string; answer: Answer | undefined }
  /** a one-tap batch was answered: record and submit at once */
  | { kind: 'oneTap'; key: string; revision: string; questionId: string; answer: Answer }
  /** a one-tap answer that takes a note: its form opens, and submitting it answers */
  | { kind: 'openNote'; key: string; revision: string; questionId: string; answer: string }
  | { kind: 'openFreeWrite'; key: string; revision: string; questionId: string }
  /** the text an envelope question's choice asks for is to be written or edited */
  | { kind: 'openFollowUp'; key: string; revision: string; questionId: string }
  | { kind: 'showPreview'; key: string; revision: string; questionId: string }
  | { kind: 'showOptions'; key: string; revision: string; questionId: string }
  | ButtonPress;

const INDEX = /^(0|[1-9]\d{0,5})$/;

/** The option an index string names, or `undefined` when it names none. */
function optionAt(question: Question, value: string | undefined): string | undefined {
  if (value === undefined || !INDEX.test(value)) return undefined;
  return question.options?.[Number.parseInt(value, 10)];
}

/** The yes-no answer a button value stands for. */
function yesNo(value: string | null | undefined): boolean | undefined {
  if (value === 'yes') return true;
  if (value === 'no') return false;
  return undefined;
}

/** The options a choose-many selection names, in the question's order; `null` if any is unknown. */
function optionsAt(question: Question, values: readonly { value: string }[]): string[] | null {
  const indices = new Set<number>();
  for (const { value } of values) {
    if (optionAt(question, value) === undefined) return null;
    indices.add(Number.parseInt(value, 10));
  }
  return [...indices].sort((a, b) => a - b).map((index) => question.options?.[index] as string);
}

/**
 * Reads one action of a `block_actions` payload against the batch's questions. Option values
 * are indices and map back to the exact option strings; the batch's buttons need no question
 * (they decode with none, while the questions cannot be read). Anything the relay did not
 * render, a batch button outside the Submit block, or a control naming a question or option
 * that does not exist gives `undefined`.
 */
export function decodeAction(
  action: ActionPayload,
  questions: readonly Question[],
): DecodedAction | undefined {
  const block = parseBlockId(action.block_id);
  const kind = actionKindOf(action.action_id);
  if (!block || !kind) return undefined;
  const { key, revision } = block;
  const button = batchButtonOf(kind);
  if (button) {
    const value = action.value ?? undefined;
    return block.submit ? ({ kind: button, key, revision, value } as ButtonPress) : undefined;
  }
  if (block.questionIndex === undefined) return undefined;
  const question = questions[block.questionIndex];
  if (!question) return undefined;
  const questionId = question.id;

  switch (kind) {
    case ACTION_KINDS.choose: {
      if (question.type !== 'choose-one') return undefined;
      const selected = action.selected_option;
      if (selected === null || selected === undefined) {
        return { kind: 'draft', key, revision, questionId, answer: undefined };
      }
      const answer = optionAt(question, selected.value);
      return answer === undefined
        ? undefined
        : { kind: 'draft', key, revision, questionId, answer };
    }
    case ACTION_KINDS.chooseMany: {
      if (question.type !== 'choose-many') return undefined;
      const answer = optionsAt(question, action.selected_options ?? []);
      if (answer === null) return undefined;
      return {
        kind: 'draft',
        key,
        revision,
        questionId,
        answer: answer.length === 0 ? undefined : answer,
      };
    }
    case ACTION_KINDS.yesNo: {
      const answer = yesNo(action.value);
      if (question.type !== 'yes-no' || answer === undefined) return undefined;
      return { kind: 'draft', key, revision, questionId, answer };
    }
    case ACTION_KINDS.oneTap: {
      const answer =
        question.type === 'yes-no'
          ? yesNo(action.value)
          : question.type === 'choose-one'
            ? optionAt(question, action.value ?? undefined)
            : undefined;
      return answer === undefined
        ? undefined
        : { kind: 'oneTap', key, revision, questionId, answer };
    }
    case ACTION_KINDS.note: {
      const answer = optionAt(question, action.value ?? undefined);
      return answer !== undefined && noteOptions(question).includes(answer)
        ? { kind: 'openNote', key, revision, questionId, answer }
        : undefined;
    }
    case ACTION_KINDS.freeWrite:
      return question.type === 'free-write'
        ? { kind: 'openFreeWrite', key, revision, questionId }
        : undefined;
    case ACTION_KINDS.showPreview:
      return { kind: 'showPreview', key, revision, questionId };
    case ACTION_KINDS.showOptions:
      return { kind: 'showOptions', key, revision, questionId };
    case ACTION_KINDS.followUp:
      return TYPES_WITH_OPTIONS.includes(question.type)
        ? { kind: 'openFollowUp', key, revision, questionId }
        : undefined;
  }
}

/** One entry of a payload's `state.values[blockId]`, keyed by action id. */
export type StateValues = Record<
  string,
  Record<string, Omit<ActionPayload, 'block_id' | 'action_id'>>
>;

/**
 * The selections a payload's `state.values` reports in the batch's own blocks as they are now:
 * blocks of another batch, revision or iteration (a screen that has not caught up with an
 * update, or a forged payload) are left out, as are controls with nothing selected. Checkboxes
 * and selects report each tick, but a later click carries them all.
 */
export function draftsFromState(
  stateValues: StateValues,
  questions: readonly Question[],
  current: { key: string; revision: string; iteration: number },
): Map<string, Answer> {
  const drafts = new Map<string, Answer>();
  for (const [blockId, actions] of Object.entries(stateValues)) {
    const block = parseBlockId(blockId);
    if (!block || block.role !== undefined) continue;
    if (block.key !== current.key || block.revision !== current.revision) continue;
    if ((block.iteration ?? 0) !== current.iteration) continue;
    for (const [actionIdText, state] of Object.entries(actions)) {
      const kind = actionKindOf(actionIdText);
      if (kind !== ACTION_KINDS.choose && kind !== ACTION_KINDS.chooseMany) continue;
      const decoded = decodeAction(
        { ...state, block_id: blockId, action_id: actionIdText },
        questions,
      );
      if (decoded?.kind === 'draft' && decoded.answer !== undefined) {
        drafts.set(decoded.questionId, decoded.answer);
      }
    }
  }
  return drafts;
}
