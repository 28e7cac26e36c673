import { idRecord } from '../protocol/id-record.js';
import { type Answer, type Question, TYPES_WITH_OPTIONS } from '../protocol/question.js';
import { ACTION_KINDS, actionKindOf, parseBlockId } from './ids.js';

// Listeners read block ids alongside actions; one import serves both.
export { parseBlockId };

/** The parts of a `block_actions` action the decoder reads. */
export interface ActionPayload {
  block_id: string;
  action_id: string;
  type: string;
  value?: string | null;
  selected_option?: { value: string } | null;
  selected_options?: { value: string }[] | null;
}

/** What a click or selection on a batch message means. */
export type DecodedAction =
  /** a selection changed; `answer` undefined means it was cleared */
  | { kind: 'draft'; key: string; revision: string; questionId: string; answer: Answer | undefined }
  | { kind: 'submit'; key: string; revision: string }
  /** an envelope batch is closed without answers */
  | { kind: 'cancel'; key: string; revision: string }
  /** a one-tap batch was answered: record and submit at once */
  | { kind: 'one-tap'; key: string; revision: string; questionId: string; answer: Answer }
  | { kind: 'open-free-write'; key: string; revision: string; questionId: string }
  /** the text an envelope question's choice asks for is to be written or edited */
  | { kind: 'open-follow-up'; key: string; revision: string; questionId: string }
  | { kind: 'show-preview'; key: string; revision: string; questionId: string }
  | { kind: 'show-options'; key: string; revision: string; questionId: string };

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
 * are indices and map back to the exact option strings. Anything the relay did not render, or
 * that names a question or option that does not exist, gives `undefined`.
 */
export function decodeAction(
  action: ActionPayload,
  questions: readonly Question[],
): DecodedAction | undefined {
  const block = parseBlockId(action.block_id);
  const kind = actionKindOf(action.action_id);
  if (!block || !kind) return undefined;
  const { key, revision } = block;
  if (kind === ACTION_KINDS.submit)
    return block.submit ? { kind: 'submit', key, revision } : undefined;
  if (kind === ACTION_KINDS.cancel)
    return block.submit ? { kind: 'cancel', key, revision } : undefined;
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
        : { kind: 'one-tap', key, revision, questionId, answer };
    }
    case ACTION_KINDS.freeWrite:
      return question.type === 'free-write'
        ? { kind: 'open-free-write', key, revision, questionId }
        : undefined;
    case ACTION_KINDS.showPreview:
      return { kind: 'show-preview', key, revision, questionId };
    case ACTION_KINDS.showOptions:
      return { kind: 'show-options', key, revision, questionId };
    case ACTION_KINDS.followUp:
      return TYPES_WITH_OPTIONS.includes(question.type)
        ? { kind: 'open-follow-up', key, revision, questionId }
        : undefined;
  }
}

/** One entry of a payload's `state.values[blockId]`, keyed by action id. */
export type StateValues = Record<
  string,
  Record<string, Omit<ActionPayload, 'block_id' | 'action_id'>>
>;

/**
 * Every current selection in a payload's `state.values` (checkboxes and selects report each
 * tick, but a later click carries them all). Controls with nothing selected are left out, as
 * are blocks of another batch or revision when `batch` is given.
 */
export function draftsFromState(
  stateValues: StateValues,
  questions: readonly Question[],
  batch?: { key: string; revision: string },
): Record<string, Answer> {
  const drafts = idRecord<Answer>();
  for (const [blockId, actions] of Object.entries(stateValues)) {
    const block = parseBlockId(blockId);
    if (!block || block.role !== undefined) continue;
    if (batch && (block.key !== batch.key || block.revision !== batch.revision)) continue;
    for (const [actionIdText, state] of Object.entries(actions)) {
      const kind = actionKindOf(actionIdText);
      if (kind !== ACTION_KINDS.choose && kind !== ACTION_KINDS.chooseMany) continue;
      const decoded = decodeAction(
        { ...state, block_id: blockId, action_id: actionIdText },
        questions,
      );
      if (decoded?.kind === 'draft' && decoded.answer !== undefined) {
        drafts[decoded.questionId] = decoded.answer;
      }
    }
  }
  return drafts;
}
