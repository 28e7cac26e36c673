import type { App, ViewSubmitAction } from '@slack/bolt';
import type { Logger } from 'pino';
import type { BatchRecord } from '../../core/batch/batch-record.js';
import type { DraftOutcome } from '../../core/batch/outcomes.js';
import { refusalFor } from '../../core/batch/refusal.js';
import { type Question, TYPES_WITH_OPTIONS } from '../../core/protocol/questions/question.js';
import { CALLBACK_IDS } from '../../core/slack/controls/ids.js';
import { modalMetadataKey, parseModalMetadata } from '../../core/slack/controls/modal-metadata.js';
import { explainRefusal } from '../../core/slack/outcome-text.js';
import { readFollowUpSubmission } from '../../core/slack/views/render-follow-up-modal.js';
import { readFreeWriteSubmission } from '../../core/slack/views/render-modals.js';
import type { BatchActions } from '../../queue/actions/batch-actions.js';
import { type ModalSeal, UNKNOWN_FORM } from '../access/modal-seal.js';
import { acceptOnce, type SubmittedViews } from '../access/submitted-views.js';
import { readPresentation } from '../presenting/slack-presentation.js';
import { type ActionPlace, tellUser } from '../presenting/tell-user.js';
import { lookupBeforeAck } from './lookup-before-ack.js';

/** What a text modal's listener needs. */
export interface TextModalDeps {
  actions: BatchActions;
  log: Logger;
  /** opens the form's sealed metadata; a form the relay did not open names no batch */
  seal: ModalSeal;
  /** the form submissions acted on: a replay of one changes nothing */
  submittedViews: SubmittedViews;
}

/** A modal whose one text input is saved against a question of a batch. */
export interface TextModal {
  /** the modal's `callback_id` */
  callbackId: string;
  /** names the listener's logger */
  component: string;
  /** the typed text, from the submitted `view.state.values` */
  read(values: Record<string, Record<string, { value?: string | null }>>): string;
  /** whether the form is one this question has (a free-write answer, text for a choice) */
  fits(question: Question): boolean;
  /** stores the text for the question */
  save(
    actions: BatchActions,
    key: string,
    input: { revision: string; questionId: string; text: string },
  ): Promise<DraftOutcome>;
}

/** The text forms, one entry each: a free-write answer, and the text an envelope choice asks for. */
export const TEXT_FORMS: readonly TextModal[] = [
  {
    callbackId: CALLBACK_IDS.freeWrite,
    component: 'free-write',
    read: readFreeWriteSubmission,
    fits: (question) => question.type === 'free-write',
    save: (actions, key, { revision, questionId, text }) =>
      actions.saveDraft(key, { revision, questionId, answer: text }),
  },
  {
    callbackId: CALLBACK_IDS.followUp,
    component: 'follow-up',
    read: readFollowUpSubmission,
    fits: (question) => TYPES_WITH_OPTIONS.includes(question.type),
    save: (actions, key, input) => actions.saveFollowUp(key, input),
  },
];

/**
 * Saves what is typed into a text modal (free-write answers, envelope follow-up text). The
 * batch is looked up by key first: a question id too long for `private_metadata` is kept there
 * only as its index, which the batch's questions turn back into the id. A refusal known before
 * `ack()` shows under the input; one found while saving is told to the person privately.
 */
export function registerTextModal(app: App, deps: TextModalDeps, modal: TextModal): void {
  const { actions } = deps;
  const log = deps.log.child({ component: modal.component });
  app.view<ViewSubmitAction>(modal.callbackId, async ({ ack, body, view, client }) => {
    const refuse = (text: string) => {
      const blockId = Object.keys(view.state.values)[0] ?? 'answer';
      return ack({ response_action: 'errors', errors: { [blockId]: text } });
    };
    // Only metadata the relay sealed names a batch and question: anything else is refused.
    const metadata = deps.seal.open(view.private_metadata);
    const key = metadata === undefined ? undefined : modalMetadataKey(metadata);
    const looked = await lookupBeforeAck(actions, key || undefined, refuse);
    if (!looked) return;
    const { found } = looked;
    const questions = found?.batch?.questions ?? [];
    const meta = found && metadata ? parseModalMetadata(metadata, questions) : undefined;
    const question = meta && questions.find((q) => q.id === meta.questionId);
    if (metadata === undefined || (found && (!question || !modal.fits(question)))) {
      log.warn({ key, user: body.user.id }, 'refused a form the relay cannot check');
      await refuse(UNKNOWN_FORM);
      return;
    }
    const refused = refusalFor(found?.record, { revision: meta?.revision });
    if (refused || !meta || !found) {
      await refuse(explainRefusal(refused ?? { kind: 'unknown' }));
      return;
    }
    const once = { submitted: deps.submittedViews, submission: view, ack, refuse, log };
    if (!(await acceptOnce(once))) return;
    const user = body.user.id;
    const outcome = await modal.save(actions, meta.key, {
      revision: meta.revision,
      questionId: meta.questionId,
      text: modal.read(view.state.values),
    });
    log.debug({ key: meta.key, user, outcome: outcome.kind }, 'modal text saved');
    if (outcome.kind !== 'saved') {
      // the batch changed between the check above and the save: the modal is already closed
      await tellUser(client, log, placeOf(found.record, user), explainRefusal(outcome));
    }
  });
}

/** Where to tell a person about their modal: their direct-message copy, else the channel. */
function placeOf(record: BatchRecord, user: string): ActionPlace {
  const shown = readPresentation(record.presentation);
  const copy = shown?.copies?.find((c) => c.user === user);
  return { user, channel: copy?.channel ?? shown?.channel };
}
