import { ENVELOPE_BATCH_SOURCE, questionIdAt } from '../envelope/envelope-to-batch.js';

/** One answer a person may give to an approval request, and whether it lets the action go. */
export interface ApprovalChoice {
  label: string;
  approves: boolean;
}

/** The choices offered when the agent names none. */
export const DEFAULT_CHOICES: readonly ApprovalChoice[] = [
  { label: 'Approve', approves: true },
  { label: 'Deny', approves: false },
];

/** What an agent asks people to approve: `request_approval`'s arguments. */
export interface ApprovalRequest {
  /** What the agent wants to do, in a line: the question's prompt. */
  action: string;
  /** Why, and what exactly: markdown, shown as the question's preview. */
  details?: string;
  choices?: readonly ApprovalChoice[];
}

/** The header shown above an approval request. */
const HEADER = 'Approval';

/** The option that gives `label` with a note typed in a form. */
const withNote = (label: string): string => `${label} with a note…`;

const NOTE_DESCRIPTION = 'Opens a form for a note the agent reads.';

/**
 * The q-out batch that puts an approval request to people: one choose-one question, the
 * action as its prompt and the details as a markdown preview, each choice once plainly and
 * once "with a note…", which asks for text. It is an envelope batch (the relay shows headers,
 * descriptions and the text forms, and Cancel ends it without an answer file).
 */
export function approvalBatch(request: ApprovalRequest, seq = 1) {
  const choices = request.choices ?? DEFAULT_CHOICES;
  const options = choices.flatMap((choice) => [choice.label, withNote(choice.label)]);
  const question = {
    id: questionIdAt(0),
    type: 'choose-one' as const,
    prompt: request.action,
    options,
    header: HEADER,
    optionDescriptions: choices.flatMap(() => ['', NOTE_DESCRIPTION]),
    followUps: choices.map((_, index) => index * 2 + 1),
    ...(request.details !== undefined && request.details.trim() !== ''
      ? { preview: { type: 'markdown' as const, content: request.details } }
      : {}),
  };
  return { seq, source: ENVELOPE_BATCH_SOURCE, questions: [question] };
}

/** How a person answered an approval request. */
export interface ApprovalDecision {
  approved: boolean;
  /** The label of the choice picked (without "with a note…"). */
  choice: string;
  /** The note typed with it, if any. */
  note?: string;
}

/**
 * Reads the decision from the batch's answer (`answer`, the picked option) and the text typed
 * for it (`typed`); undefined when the answer is none of the options {@link approvalBatch} made.
 */
export function readApproval(
  request: ApprovalRequest,
  answer: unknown,
  typed: string | undefined,
): ApprovalDecision | undefined {
  const choices = request.choices ?? DEFAULT_CHOICES;
  for (const choice of choices) {
    if (answer === choice.label) return { approved: choice.approves, choice: choice.label };
    if (answer === withNote(choice.label)) {
      const note = typed?.trim() ?? '';
      return { approved: choice.approves, choice: choice.label, ...(note ? { note } : {}) };
    }
  }
  return undefined;
}

/**
 * Why these choices cannot be offered, or undefined: every label once, and none that reads
 * like another's "with a note…" option, so each option maps back to one choice.
 */
export function choicesProblem(choices: readonly ApprovalChoice[]): string | undefined {
  const labels = choices.map((choice) => choice.label);
  const options = labels.flatMap((label) => [label, withNote(label)]);
  const twice = options.find((option, index) => options.indexOf(option) !== index);
  if (twice !== undefined) {
    return `choices: the label ${JSON.stringify(twice)} comes twice (each choice is also offered "with a note…"); give each choice its own label`;
  }
  if (!choices.some((choice) => choice.approves) || choices.every((choice) => choice.approves)) {
    return 'choices: at least one choice must approve ("approves": true) and one must not';
  }
  return undefined;
}
