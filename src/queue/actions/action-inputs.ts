import type { AnswerRoute } from '../../core/batch/batch-record.js';
import type { Answer } from '../../core/protocol/questions/question.js';

/** What Submit carries besides the batch's key (and what another relay is asked to submit). */
export interface SubmitInput {
  revision: string;
  by: string;
  /** choices a person's screen reports with Submit; they only fill questions without a draft */
  unsaved?: ReadonlyMap<string, Answer>;
  /** a one-tap answer: the person's answer itself, and the note typed with it (its form's) */
  tapped?: { questionId: string; answer: Answer; note?: string };
  /** answered through the digest rather than on the batch's own message */
  via?: AnswerRoute;
}

/** What Cancel carries besides the batch's key (and what another relay is asked to cancel). */
export interface CancelInput {
  revision: string;
  by: string;
}
