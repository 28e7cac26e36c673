import type { ModalView } from '@slack/types';
import type { BatchRecord } from '../../core/batch/batch-record.js';
import { isEnvelopeBatch, picksWantingText } from '../../core/envelope/envelope-batch.js';
import type { Answer, QuestionBatch } from '../../core/protocol/questions/question.js';
import { toBatchView } from '../../core/slack/layout/to-batch-view.js';
import { renderFollowUpModal } from '../../core/slack/views/render-follow-up-modal.js';

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
  const view = toBatchView(found.record, { batch: found.batch });
  return renderFollowUpModal({ view, questionId: choice.questionId, answer: choice.answer });
}
