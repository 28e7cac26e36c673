import type { BatchStatus } from '../batch/batch-record.js';
import type { HandOffRefusal } from '../batch/hand-off-refusal.js';
import type {
  CancelOutcome,
  OwnerPendingOutcome,
  SubmitOutcome,
  UndoOutcome,
} from '../batch/outcomes.js';
import type { Refusal } from '../batch/refusal.js';

/**
 * What a person is told, privately, when what they did changed nothing or did not work: every
 * outcome's words in one place, plain text (the edge escapes it).
 */

const CLOSED_TEXT: Readonly<Record<BatchStatus, string>> = {
  open: 'This batch is open; nothing was changed.',
  answered: 'This batch is already answered; nothing was changed.',
  'answered-elsewhere': 'This batch was already answered in another tool; nothing was changed.',
  withdrawn:
    'The agent withdrew this batch (a Claude Code hook does when it was answered in the terminal); nothing was changed.',
  'run-removed': "This batch's run folder was removed; nothing was changed.",
  held: 'Someone answered this a moment ago; their answer is written when its Undo runs out. Nothing was changed.',
  submitting: 'The answers are being written right now; nothing was changed.',
  malformed: 'The question file is malformed; fix it first. Nothing was changed.',
  cancelled: 'These questions were cancelled; nothing was changed.',
};

/** Why an action changed nothing. */
export function explainRefusal(refusal: Refusal): string {
  switch (refusal.kind) {
    case 'unknown':
      return 'The relay no longer tracks this batch, so nothing was changed.';
    case 'out-of-date':
      return 'The agent changed this batch after this message was posted. Nothing was changed; use the updated message.';
    case 'closed':
      return CLOSED_TEXT[refusal.status];
  }
}

/** What happens to answers whose run is on another machine that has not written them yet. */
export function explainOwnerPending(
  outcome: OwnerPendingOutcome,
  what: 'answers' | 'cancellation',
): string {
  return outcome.kind === 'owner-offline'
    ? `This batch's run is on ${outcome.node}, whose relay is not running right now. Your ${what} ${what === 'answers' ? 'are' : 'is'} kept and will be written when it is back.`
    : `This batch's run is on ${outcome.node}, which has not confirmed yet; your ${what} ${what === 'answers' ? 'are' : 'is'} kept and will be written there.`;
}

/** Why Submit wrote nothing, for the outcomes that need no more than the outcome itself. */
export function explainSubmit(
  outcome: Exclude<SubmitOutcome, { kind: 'answered' | 'held' | 'incomplete' | 'needs-text' }>,
): string {
  switch (outcome.kind) {
    case 'owner-offline':
    case 'owner-slow':
      return explainOwnerPending(outcome, 'answers');
    case 'answered-elsewhere':
      return 'Someone answered this batch in another tool first; your answers were not written.';
    case 'write-failed':
      return `The answers could not be written: ${outcome.message}. They are kept; press Submit again once this is fixed.`;
    default:
      return explainRefusal(outcome);
  }
}

/** Why pressing Undo changed nothing. */
export function explainUndo(outcome: Exclude<UndoOutcome, { kind: 'undone' }>): string {
  switch (outcome.kind) {
    case 'not-yours':
      return 'Only the person who gave this answer can undo it; nothing was changed.';
    case 'closed':
      return outcome.status === 'answered' || outcome.status === 'submitting'
        ? 'Too late to undo: the answer was written already.'
        : CLOSED_TEXT[outcome.status];
    case 'unknown':
    case 'out-of-date':
      return explainRefusal(outcome);
  }
}

/** Why pressing Cancel changed nothing. */
export function explainCancel(outcome: Exclude<CancelOutcome, { kind: 'cancelled' }>): string {
  switch (outcome.kind) {
    case 'owner-offline':
    case 'owner-slow':
      return explainOwnerPending(outcome, 'cancellation');
    case 'not-cancellable':
      return 'Only questions asked with `o7-slack-relay ask` can be cancelled; nothing was changed.';
    case 'write-failed':
      return `The cancellation could not be saved: ${outcome.message}. The questions stay open; press Cancel again once this is fixed.`;
    default:
      return explainRefusal(outcome);
  }
}

/** Why "I'm on it" (or "Release") changed nothing: someone else is on the batch. */
export const explainClaimedByOther = (release: boolean): string =>
  release
    ? 'Someone else is on this batch, so only they can release it. Nothing was changed; hand it off or ask them.'
    : 'Someone else is already on this batch; nothing was changed.';

const CANNOT_ANSWER_TEXT: Readonly<
  Record<Extract<HandOffRefusal, { kind: 'cannot-answer' }>['account'], string>
> = {
  unknown: 'Slack could not tell who that is, so the batch was not handed off. Please try again.',
  'not-found':
    'Slack knows no such user in this workspace, so the batch was not handed off; pick a teammate from the list.',
  deactivated:
    "That person's Slack account is deactivated, so they could never answer; pick someone else.",
  bot: 'That is a bot or app, which cannot answer questions; pick a person.',
};

/** Why a batch was not handed to the teammate picked, shown under the hand-off form's picker. */
export function explainHandOffRefusal(refusal: HandOffRefusal): string {
  switch (refusal.kind) {
    case 'self':
      return 'You cannot hand a batch off to yourself; pick a teammate.';
    case 'cannot-answer':
      return CANNOT_ANSWER_TEXT[refusal.account];
    case 'not-allowed':
      return 'That person is not on the allow list (RELAY_ALLOWED_USERS), so they could not answer; pick someone who is, or ask an admin to add them.';
  }
}

/** A form Slack would not open (its trigger lasts 3 seconds). */
export const FORM_NOT_OPENED = 'Slack would not open the form in time. Please try again.';
