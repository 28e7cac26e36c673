import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { Logger } from 'pino';
import { refusalFor } from '../../core/batch/refusal.js';
import {
  CLAIM_VALUES,
  parseBlockId,
  TEAM_ACTION_PATTERN,
  TEAM_ACTIONS,
} from '../../core/slack/ids.js';
import {
  explainClaimedByOther,
  explainRefusal,
  FORM_NOT_OPENED,
} from '../../core/slack/outcome-text.js';
import { renderHandOffModal } from '../../core/slack/render-hand-off-modal.js';
import { replyThreadTs } from '../../core/slack/reply-thread.js';
import type { BatchActions } from '../../queue/batch-actions.js';
import {
  lookupFromSource,
  NOT_THIS_BATCH,
  REFUSED_FOREIGN,
  sourceOfAction,
} from '../action-binding.js';
import type { ModalSeal } from '../modal-seal.js';
import { type ActionPlace, tellUser } from '../tell-user.js';

/**
 * The team controls on a batch message, in the channel or a direct-message copy: "Hand off"
 * opens the hand-off modal, "I'm on it" / "Release" marks who is answering.
 */
export function registerTeamActions(
  app: App,
  deps: { actions: BatchActions; log: Logger; seal: ModalSeal },
): void {
  const { actions, seal } = deps;
  const log = deps.log.child({ component: 'team' });

  app.action<BlockAction<ButtonAction>>(
    TEAM_ACTION_PATTERN,
    async ({ ack, body, action, client, context: bolt }) => {
      await ack();
      const place: ActionPlace = {
        user: body.user.id,
        channel: body.channel?.id ?? body.container?.channel_id,
        threadTs: replyThreadTs(body.message),
      };
      const ids = parseBlockId(action.block_id);
      const source = sourceOfAction(bolt);
      const { found, foreign } = ids
        ? await lookupFromSource((key) => actions.lookup(key), ids.key, source, seal)
        : { found: undefined, foreign: false };
      if (foreign) {
        log.warn({ key: ids?.key, user: place.user, from: source?.kind }, REFUSED_FOREIGN);
        await tellUser(client, log, place, NOT_THIS_BATCH);
        return;
      }
      if (!ids || !found) {
        await tellUser(client, log, place, explainRefusal({ kind: 'unknown' }));
        return;
      }
      const { record } = found;
      const refusal = refusalFor(record, { revision: ids.revision });
      if (refusal) {
        log.info({ key: ids.key, user: place.user, refusal: refusal.kind }, 'team action refused');
        await tellUser(client, log, place, explainRefusal(refusal));
        return;
      }
      const context = { key: ids.key, user: place.user, action: action.action_id };

      if (action.action_id === TEAM_ACTIONS.handOff) {
        const title = found.batch?.questions[0]?.prompt ?? `Batch ${record.seq}`;
        try {
          await client.views.open({
            trigger_id: body.trigger_id,
            view: seal.seal(
              renderHandOffModal({ key: ids.key, revision: ids.revision, title }),
            ) as never,
          });
        } catch (err) {
          log.warn({ err, ...context }, 'could not open the hand-off modal');
          await tellUser(client, log, place, FORM_NOT_OPENED);
        }
        return;
      }

      const release = action.value === CLAIM_VALUES.release;
      const outcome = await actions.claim(ids.key, {
        revision: ids.revision,
        user: place.user,
        release,
      });
      if (outcome.kind === 'claimed-by-other') {
        await tellUser(client, log, place, explainClaimedByOther(release));
      } else if (outcome.kind !== 'saved') {
        await tellUser(client, log, place, explainRefusal(outcome));
      } else {
        log.info(context, release ? 'batch released' : 'batch claimed');
      }
    },
  );
}
