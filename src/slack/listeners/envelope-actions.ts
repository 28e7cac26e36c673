import type { ModalView } from '@slack/types';
import type { BatchRecord } from '../../core/batch/batch-record.js';
import { isEnvelopeBatch, picksWantingText } from '../../core/envelope/envelope-batch.js';
import type { Answer, QuestionBatch } from '../../core/protocol/question.js';
import { renderFollowUpModal } from '../../core/slack/render-follow-up-modal.js';
import type { CancelOutcome } from '../../queue/batch-actions.js';
import { toBatchView } from '../slack-presenter.js';
import { explainRefusal } from '../tell-user.js';

/** A batch as the queue's `lookup` returns it. */
interface Found {
  record: BatchRecord;
  batch: QuestionBatch | undefined;
}

/**
 * The modal asking for typed text, for a choice on an envelope batch that newly picks
 * `Other…` or an option promising a follow-up; `undefined` when the choice needs no modal.
 * It must be opened before the choice is recorded: the click's trigger lasts 3 seconds.
 */
export function followUpModalForChoice(
  found: Found,
  choice: { questionId: string; answer: Answer | undefined },
): ModalView | undefined {
  const { batch, record } = found;
  if (!batch || !isEnvelopeBatch(batch)) return undefined;
  const question = batch.questions.find((q) => q.id === choice.questionId);
  if (!question) return undefined;
  const before = picksWantingText(question, record.drafts[choice.questionId]);
  const after = picksWantingText(question, choice.answer);
  if (!after.some((pick) => !before.includes(pick))) return undefined;
  return followUpModal(found, choice);
}

/** The follow-up modal for a question of an envelope batch, for its current (or given) choice. */
export function followUpModal(
  found: Found,
  choice: { questionId: string; answer: Answer | undefined },
): ModalView {
  const view = toBatchView(found.record, { batch: found.batch, questionFile: '' });
  return renderFollowUpModal({ view, questionId: choice.questionId, answer: choice.answer });
}

/** Why pressing Cancel changed nothing, in words for the person who pressed it. */
export function explainCancelRefusal(outcome: Exclude<CancelOutcome, { kind: 'cancelled' }>) {
  switch (outcome.kind) {
    case 'not-cancellable':
      return 'Only questions asked with `o7-slack-relay ask` can be cancelled; nothing was changed.';
    case 'write-failed':
      return `The cancellation could not be saved: ${outcome.message}. The questions stay open; press Cancel again once this is fixed.`;
    default:
      return explainRefusal(outcome);
  }
}
