import type { App, ViewSubmitAction } from '@slack/bolt';
import type { Logger } from 'pino';
import type { BatchRecord } from '../../core/batch/batch-record.js';
import type { DraftOutcome } from '../../core/batch/outcomes.js';
import { refusalFor } from '../../core/batch/refusal.js';
import { noteOptions } from '../../core/protocol/questions/note-options.js';
import { type Question, TYPES_WITH_OPTIONS } from '../../core/protocol/questions/question.js';
import { CALLBACK_IDS } from '../../core/slack/controls/ids.js';
import { modalMetadataKey, parseModalMetadata } from '../../core/slack/controls/modal-metadata.js';
import { explainRefusal, explainSubmit } from '../../core/slack/outcome-text.js';
import { readFollowUpSubmission } from '../../core/slack/views/render-follow-up-modal.js';
import { readFreeWriteSubmission } from '../../core/slack/views/render-modals.js';
import { readNoteSubmission } from '../../core/slack/views/render-note-modal.js';
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

/** What a text modal's submission saves: the text, for whom, against which question. */
export interface TextInput {
  revision: string;
  questionId: string;
  text: string;
  /** the person who submitted the form */
  user: string;
  /** the option the form answers with (the note form's) */
  answer?: string;
}

/** A modal whose one text input is saved against a question of a batch. */
export interface TextModal {
  /** the modal's `callback_id` */
  callbackId: string;
  /** names the listener's logger */
  component: string;
  /** the typed text, from the submitted `view.state.values` */
  read(values: Record<string, Record<string, { value?: string | null }>>): string;
  /**
   * Whether the form is one this question has (a free-write answer, text for a choice, a note
   * for one of its note options): undefined when not, and the option it answers with when it
   * answers (`option` is the index its metadata gives).
   */
  fits(question: Question, option: number | undefined): { answer?: string } | undefined;
  /** stores the text for the question; what to tell the person when that changed nothing */
  save(actions: BatchActions, key: string, input: TextInput): Promise<string | undefined>;
}

/** What to tell about a text that could not be kept. */
const toldDraft = (outcome: DraftOutcome) =>
  outcome.kind === 'saved' ? undefined : explainRefusal(outcome);

/**
 * The text forms, one entry each: a free-write answer, the text an envelope choice asks for,
 * and the note a one-tap answer takes, which answers the batch.
 */
export const TEXT_FORMS: readonly TextModal[] = [
  {
    callbackId: CALLBACK_IDS.freeWrite,
    component: 'free-write',
    read: readFreeWriteSubmission,
    fits: (question) => (question.type === 'free-write' ? {} : undefined),
    save: async (actions, key, { revision, questionId, text }) =>
      toldDraft(await actions.saveDraft(key, { revision, questionId, answer: text })),
  },
  {
    callbackId: CALLBACK_IDS.followUp,
    component: 'follow-up',
    read: readFollowUpSubmission,
    fits: (question) => (TYPES_WITH_OPTIONS.includes(question.type) ? {} : undefined),
    save: async (actions, key, input) => toldDraft(await actions.saveFollowUp(key, input)),
  },
  {
    callbackId: CALLBACK_IDS.note,
    component: 'note',
    read: readNoteSubmission,
    fits: (question, option) => {
      const answer = option === undefined ? undefined : question.options?.[option];
      return answer !== undefined && noteOptions(question).includes(answer)
        ? { answer }
        : undefined;
    },
    save: async (actions, key, { revision, questionId, text, user, answer }) => {
      if (answer === undefined) return explainRefusal({ kind: 'unknown' });
      const outcome = await actions.submit(key, {
        revision,
        by: user,
        tapped: { questionId, answer, ...(text !== '' ? { note: text } : {}) },
      });
      // a one-tap batch lacks nothing once its answer is tapped
      if (outcome.kind === 'incomplete' || outcome.kind === 'needs-text') {
        return explainRefusal({ kind: 'unknown' });
      }
      return outcome.kind === 'answered' || outcome.kind === 'held'
        ? undefined
        : explainSubmit(outcome);
    },
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
    const form = question ? modal.fits(question, meta?.option) : undefined;
    if (metadata === undefined || (found && form === undefined)) {
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
    const told = await modal.save(actions, meta.key, {
      revision: meta.revision,
      questionId: meta.questionId,
      text: modal.read(view.state.values),
      user,
      ...form,
    });
    log.debug({ key: meta.key, user, saved: told === undefined }, 'modal text saved');
    if (told !== undefined) {
      // the batch changed between the check above and the save: the modal is already closed
      await tellUser(client, log, placeOf(found.record, user), told);
    }
  });
}

/** Where to tell a person about their modal: their direct-message copy, else the channel. */
function placeOf(record: BatchRecord, user: string): ActionPlace {
  const shown = readPresentation(record.presentation);
  const copy = shown?.copies?.find((c) => c.user === user);
  return { user, channel: copy?.channel ?? shown?.channel };
}
