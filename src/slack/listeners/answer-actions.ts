import type { App, BlockAction } from '@slack/bolt';
import type { Logger } from 'pino';
import { revisionOf } from '../../core/batch/batch-key.js';
import type { BatchRecord } from '../../core/batch/batch-record.js';
import { refusalFor } from '../../core/batch/refusal.js';
import { idRecord } from '../../core/protocol/id-record.js';
import type { Answer, Question, QuestionBatch } from '../../core/protocol/question.js';
import {
  type DecodedAction,
  decodeAction,
  draftsFromState,
  parseBlockId,
} from '../../core/slack/decode-action.js';
import { ANSWER_ACTION_PATTERN } from '../../core/slack/ids.js';
import { describeMissing } from '../../core/slack/missing-answers.js';
import { describeMissingText } from '../../core/slack/missing-text.js';
import {
  explainCancel,
  explainRefusal,
  explainSubmit,
  FORM_NOT_OPENED,
} from '../../core/slack/outcome-text.js';
import { renderFreeWriteModal, renderOptionsModal } from '../../core/slack/render-modals.js';
import { replyThreadTs } from '../../core/slack/reply-thread.js';
import { toBatchView } from '../../core/slack/to-batch-view.js';
import type { BatchActions } from '../../queue/batch-actions.js';
import {
  lookupFromSource,
  NOT_THIS_BATCH,
  REFUSED_FOREIGN,
  sourceOfAction,
} from '../action-binding.js';
import { followUpModal, followUpModalForChoice } from '../follow-up-form.js';
import type { FullPreviews, OpenModal } from '../full-preview.js';
import type { ActionSource } from '../interaction-payload.js';
import type { ModalSeal } from '../modal-seal.js';
import { iterationOfMessage, readPresentation } from '../slack-presentation.js';
import { type ActionPlace, tellUser } from '../tell-user.js';

/** What the answer listener needs. */
export interface AnswerActionsDeps {
  actions: BatchActions;
  log: Logger;
  seal: ModalSeal;
  fullPreviews: FullPreviews;
}

/** One click on an open batch, decoded, with what its handler needs. */
interface Click {
  record: BatchRecord;
  batch: QuestionBatch | undefined;
  questions: readonly Question[];
  body: BlockAction;
  /** the message (or form) the click came from; the batch's own, as checked */
  source: ActionSource | undefined;
  place: ActionPlace;
  /** tells the person who clicked, privately */
  tell: (text: string) => Promise<void>;
  open: OpenModal;
  log: Logger;
}

type Handler<K extends DecodedAction['kind']> = (
  click: Click,
  action: Extract<DecodedAction, { kind: K }>,
  deps: AnswerActionsDeps,
) => Promise<void>;

/** The text forms a click opens at once. */
const openForm: Handler<'open-free-write' | 'show-options'> = async (click, action) => {
  const view = toBatchView(click.record, { batch: click.batch });
  const render = action.kind === 'open-free-write' ? renderFreeWriteModal : renderOptionsModal;
  await click.open(render({ view, questionId: action.questionId }));
};

/** The whole preview; one too long for any form is attached to the thread as well. */
const showPreview: Handler<'show-preview'> = async (click, action, deps) => {
  const view = toBatchView(click.record, { batch: click.batch });
  const { record, open } = click;
  await deps.fullPreviews.show({ record, view, questionId: action.questionId, open });
};

/** The form for the text an envelope question's choice asks for. */
const openFollowUp: Handler<'open-follow-up'> = async (click, action) => {
  const answer = click.record.drafts[action.questionId];
  await click.open(followUpModal(click, { questionId: action.questionId, answer }));
};

/** Cancel on an envelope batch. */
const cancel: Handler<'cancel'> = async (click, action, deps) => {
  const outcome = await deps.actions.cancel(action.key, {
    revision: action.revision,
    by: click.place.user,
  });
  if (outcome.kind === 'cancelled') click.log.info('batch cancelled');
  else await click.tell(explainCancel(outcome));
};

/** A choice: saved at once. Choices that ask for text open their form first (3 s trigger). */
const saveChoice: Handler<'draft'> = async (click, action, deps) => {
  const modal = followUpModalForChoice(click, action);
  if (modal) await click.open(modal);
  const outcome = await deps.actions.saveDraft(action.key, {
    revision: action.revision,
    questionId: action.questionId,
    answer: action.answer,
  });
  if (outcome.kind !== 'saved') await click.tell(explainRefusal(outcome));
};

/** Submit, or a one-tap answer: the saved choices are written. */
const submit: Handler<'submit' | 'one-tap'> = async (click, action, deps) => {
  const tapped =
    action.kind === 'one-tap'
      ? { questionId: action.questionId, answer: action.answer }
      : undefined;
  const unsaved = unsavedChoices(click);
  const outcome = await deps.actions.submit(action.key, {
    revision: action.revision,
    by: click.place.user,
    unsaved,
    ...(tapped ? { tapped } : {}),
  });
  switch (outcome.kind) {
    case 'answered':
      click.log.info('batch answered');
      return;
    case 'incomplete':
      await click.tell(describeMissing(click.questions, outcome.missing));
      return;
    case 'needs-text': {
      const drafts = idRecord([...unsaved, ...Object.entries(click.record.drafts)]);
      await click.tell(describeMissingText(click.questions, drafts, outcome.questionIds));
      return;
    }
    default:
      await click.tell(explainSubmit(outcome));
  }
};

/** What each kind of click does. */
const HANDLERS: {
  [K in DecodedAction['kind']]: (
    click: Click,
    action: Extract<DecodedAction, { kind: K }>,
    deps: AnswerActionsDeps,
  ) => Promise<void>;
} = {
  'open-free-write': openForm,
  'show-options': openForm,
  'show-preview': showPreview,
  'open-follow-up': openFollowUp,
  cancel,
  draft: saveChoice,
  submit,
  'one-tap': submit,
};

/**
 * The choices the clicked message reports that the relay may not have yet (a lost action):
 * only from the batch's blocks in the version of the message the relay sent last. An older
 * version on a screen that has not caught up may still show someone's earlier pick.
 */
function unsavedChoices({ record, body, source, questions }: Click): Map<string, Answer> {
  if (source?.kind !== 'message') return new Map();
  const iteration = iterationOfMessage(readPresentation(record.presentation), source);
  if (iteration === undefined) return new Map();
  const current = { key: record.key, revision: revisionOf(record.fingerprint), iteration };
  return draftsFromState(body.state?.values ?? {}, questions, current);
}

/**
 * Clicks and selections on batch messages: choices, forms, Submit, Cancel. Each is acknowledged
 * first (Slack allows 3 seconds), refused with a reason when the batch is closed or changed,
 * then handed to the handler for its kind.
 */
export function registerAnswerActions(app: App, deps: AnswerActionsDeps): void {
  const log = deps.log.child({ component: 'actions' });

  app.action<BlockAction>(ANSWER_ACTION_PATTERN, async ({ ack, body, action, client, context }) => {
    await ack();
    const place: ActionPlace = {
      user: body.user.id,
      channel: body.channel?.id ?? body.container?.channel_id,
      threadTs: replyThreadTs(body.message),
    };
    const tell = (text: string) => tellUser(client, log, place, text);
    const ids = 'block_id' in action ? parseBlockId(action.block_id) : undefined;
    if (!ids) {
      log.warn({ action: action.action_id }, 'action on an element the relay did not render');
      return;
    }
    const source = sourceOfAction(context);
    const { found, foreign } = await lookupFromSource(
      (key) => deps.actions.lookup(key),
      ids.key,
      source,
      deps.seal,
    );
    if (foreign) {
      log.warn({ key: ids.key, user: place.user, from: source?.kind }, REFUSED_FOREIGN);
      await tell(NOT_THIS_BATCH);
      return;
    }
    // Closed or changed batches refuse every element, whether or not it still decodes. A
    // batch being submitted right now goes on to the queue, which waits for that to finish
    // and then tells the person the real outcome.
    const refusal =
      refusalFor(found?.record, { revision: ids.revision, passSubmitting: true }) ??
      (found?.batch ? undefined : ({ kind: 'out-of-date' } as const));
    if (refusal || !found) {
      log.info({ key: ids.key, user: place.user, refusal: refusal?.kind }, 'action refused');
      await tell(explainRefusal(refusal ?? { kind: 'unknown' }));
      return;
    }
    const questions = found.batch?.questions ?? [];
    const decoded = decodeAction(action as never, questions);
    if (!decoded) {
      log.warn({ action: action.action_id, key: ids.key }, 'could not decode action');
      return;
    }
    const clickLog = log.child({ key: decoded.key, user: place.user, kind: decoded.kind });
    clickLog.debug('action');
    const open: OpenModal = async (modal) => {
      try {
        const view = deps.seal.seal(modal);
        const opened = await client.views.open({
          trigger_id: body.trigger_id,
          view: view as never,
        });
        const { id, hash } = opened.view ?? {};
        return id && hash ? { id, hash } : undefined;
      } catch (err) {
        clickLog.warn({ err }, 'could not open modal');
        await tell(FORM_NOT_OPENED);
        return undefined;
      }
    };
    const click: Click = { ...found, questions, body, source, place, tell, open, log: clickLog };
    const handle = HANDLERS[decoded.kind] as Handler<DecodedAction['kind']>;
    await handle(click, decoded, deps);
  });
}
