import type { App, BlockAction } from '@slack/bolt';
import type { Logger } from 'pino';
import type { BatchRecord } from '../../core/batch/batch-record.js';
import { idRecord } from '../../core/protocol/id-record.js';
import type { Answer, Question } from '../../core/protocol/question.js';
import { revisionOf } from '../../core/slack/batch-view.js';
import { decodeAction, draftsFromState, parseBlockId } from '../../core/slack/decode-action.js';
import { describeMissing } from '../../core/slack/missing-answers.js';
import { describeMissingText } from '../../core/slack/missing-text.js';
import { renderFreeWriteModal, renderOptionsModal } from '../../core/slack/render-modals.js';
import { replyThreadTs } from '../../core/slack/reply-thread.js';
import type { BatchQueue } from '../../queue/batch-queue.js';
import type { FullPreviews, OpenModal } from '../full-preview.js';
import type { ModalSeal } from '../modal-seal.js';
import { iterationOfMessage, readPresentation } from '../slack-presentation.js';
import { toBatchView } from '../slack-presenter.js';
import { type ActionPlace, explainRefusal, refusalFor, tellUser } from '../tell-user.js';
import { explainCancelRefusal, followUpModal, followUpModalForChoice } from './envelope-actions.js';

const MODALS = {
  'open-free-write': renderFreeWriteModal,
  'show-options': renderOptionsModal,
} as const;

/**
 * The choices the clicked message reports that the relay may not have yet (a lost action):
 * only from the batch's blocks in the version of the message the relay sent last. An older
 * version on a screen that has not caught up may still show someone's earlier pick.
 */
function unsavedChoices(
  record: BatchRecord,
  body: BlockAction,
  questions: readonly Question[],
): Map<string, Answer> {
  const iteration = iterationOfMessage(readPresentation(record.presentation), {
    channel: body.channel?.id ?? body.container?.channel_id,
    ts: body.container?.message_ts ?? body.message?.ts,
  });
  if (iteration === undefined) return new Map();
  const current = { key: record.key, revision: revisionOf(record.fingerprint), iteration };
  return draftsFromState(body.state?.values ?? {}, questions, current);
}

/** Every element the relay renders has an action id starting with `o7.`; the team controls have their own listener. */
const RELAY_ACTIONS = /^o7\.(?!hand-off$|claim$)/;

/**
 * Clicks and selections on batch messages: record choices, open the free-text and preview
 * modals, submit. Every handler acknowledges first; Slack allows 3 seconds.
 */
export function registerAnswerActions(
  app: App,
  deps: { queue: BatchQueue; log: Logger; seal: ModalSeal; fullPreviews: FullPreviews },
): void {
  const { queue, fullPreviews, seal } = deps;
  const log = deps.log.child({ component: 'actions' });

  app.action<BlockAction>(RELAY_ACTIONS, async ({ ack, body, action, client }) => {
    await ack();
    const place: ActionPlace = {
      user: body.user.id,
      channel: body.channel?.id ?? body.container?.channel_id,
      threadTs: replyThreadTs(body.message),
    };
    const ids = 'block_id' in action ? parseBlockId(action.block_id) : undefined;
    if (!ids) {
      log.warn({ action }, 'action on an element the relay did not render');
      return;
    }
    const found = await queue.lookup(ids.key);
    if (!found) {
      await tellUser(client, log, place, explainRefusal({ kind: 'unknown' }));
      return;
    }
    // Closed or changed batches refuse every element, whether or not it still decodes. A
    // batch being submitted right now goes on to the queue, which waits for that to finish
    // and then tells the person the real outcome.
    const refusal =
      refusalFor(found.record, ids.revision, { passSubmitting: true }) ??
      (found.batch ? undefined : ({ kind: 'out-of-date' } as const));
    if (refusal) {
      log.info({ key: ids.key, user: place.user, refusal: refusal.kind }, 'action refused');
      await tellUser(client, log, place, explainRefusal(refusal));
      return;
    }
    const questions: Question[] = found.batch?.questions ?? [];
    const decoded = decodeAction(action as never, questions);
    if (!decoded) {
      log.warn({ action, key: ids.key }, 'could not decode action');
      return;
    }
    const context = { key: decoded.key, user: place.user, kind: decoded.kind };
    log.debug(context, 'action');
    const openModal: OpenModal = async (modal) => {
      try {
        const opened = await client.views.open({
          trigger_id: body.trigger_id,
          view: seal.seal(modal) as never,
        });
        const { id, hash } = opened.view ?? {};
        return id && hash ? { id, hash } : undefined;
      } catch (err) {
        log.warn({ err, ...context }, 'could not open modal');
        await tellUser(
          client,
          log,
          place,
          'Slack would not open the form in time. Please try again.',
        );
        return undefined;
      }
    };

    switch (decoded.kind) {
      case 'open-free-write':
      case 'show-options':
      case 'show-preview': {
        const view = toBatchView(found.record, {
          batch: found.batch,
          questionFile: '',
        });
        const { questionId } = decoded;
        if (decoded.kind === 'show-preview') {
          await fullPreviews.show({ record: found.record, view, questionId, open: openModal });
          return;
        }
        await openModal(MODALS[decoded.kind]({ view, questionId }));
        return;
      }
      case 'open-follow-up': {
        const answer = found.record.drafts[decoded.questionId];
        await openModal(followUpModal(found, { questionId: decoded.questionId, answer }));
        return;
      }
      case 'cancel': {
        const outcome = await queue.cancel(decoded.key, {
          revision: decoded.revision,
          by: place.user,
        });
        if (outcome.kind === 'cancelled') log.info(context, 'batch cancelled');
        else await tellUser(client, log, place, explainCancelRefusal(outcome));
        return;
      }
      case 'draft': {
        // Envelope choices that ask for text open their modal first: the trigger lasts 3 s.
        const modal = followUpModalForChoice(found, decoded);
        if (modal) await openModal(modal);
        const outcome = await queue.saveDraft(decoded.key, {
          revision: decoded.revision,
          questionId: decoded.questionId,
          answer: decoded.answer,
        });
        if (outcome.kind !== 'saved') await tellUser(client, log, place, explainRefusal(outcome));
        return;
      }
      case 'submit':
      case 'one-tap': {
        const tapped =
          decoded.kind === 'one-tap'
            ? { questionId: decoded.questionId, answer: decoded.answer }
            : undefined;
        const unsaved = unsavedChoices(found.record, body, questions);
        const outcome = await queue.submit(decoded.key, {
          revision: decoded.revision,
          by: place.user,
          unsaved,
          ...(tapped ? { tapped } : {}),
        });
        switch (outcome.kind) {
          case 'answered':
            log.info(context, 'batch answered');
            return;
          case 'incomplete':
            await tellUser(client, log, place, describeMissing(questions, outcome.missing));
            return;
          case 'needs-text': {
            const drafts = idRecord([...unsaved, ...Object.entries(found.record.drafts)]);
            const text = describeMissingText(questions, drafts, outcome.questionIds);
            await tellUser(client, log, place, text);
            return;
          }
          case 'answered-elsewhere':
            await tellUser(
              client,
              log,
              place,
              'Someone answered this batch in another tool first; your answers were not written.',
            );
            return;
          case 'write-failed':
            await tellUser(
              client,
              log,
              place,
              `The answers could not be written: ${outcome.message}. They are kept; press Submit again once this is fixed.`,
            );
            return;
          default:
            await tellUser(client, log, place, explainRefusal(outcome));
        }
      }
    }
  });
}
