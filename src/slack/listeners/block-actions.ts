import type { App, BlockAction } from '@slack/bolt';
import { type Refusal, refusalFor } from '../../core/batch/refusal.js';
import { type DecodedAction, decodeAction } from '../../core/slack/controls/decode-action.js';
import { CONTROL_ACTION_PATTERN, parseBlockId } from '../../core/slack/controls/ids.js';
import { explainRefusal, FORM_NOT_OPENED } from '../../core/slack/outcome-text.js';
import {
  lookupFromSource,
  NOT_THIS_BATCH,
  REFUSED_FOREIGN,
  sourceOfAction,
} from '../access/action-binding.js';
import type { OpenModal } from '../presenting/full-preview.js';
import { placeOfAction, tellUser } from '../presenting/tell-user.js';
import { type Click, CONTROLS, type Control, type ControlDeps } from './control-handlers.js';

const OUT_OF_DATE: Refusal = { kind: 'out-of-date' };

/**
 * Every click and selection on a batch message, the one `block_actions` listener: choices,
 * forms, Submit, Cancel, the team controls. Each is acknowledged first (Slack allows 3
 * seconds), bound to its message's batch (a message or form of another batch is refused),
 * refused with a reason when the batch is closed or changed, decoded, then handed to its
 * control's entry in `CONTROLS`.
 */
export function registerBlockActions(app: App, deps: ControlDeps): void {
  const log = deps.log.child({ component: 'actions' });

  app.action<BlockAction>(
    CONTROL_ACTION_PATTERN,
    async ({ ack, body, action, client, context }) => {
      await ack();
      const place = placeOfAction(body);
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
      const questions = found?.batch?.questions ?? [];
      const decoded = decodeAction(action as never, questions);
      const control = decoded && (CONTROLS[decoded.kind] as Control<DecodedAction['kind']>);
      // Closed or changed batches refuse every element, whether or not it still decodes. A
      // batch being submitted right now goes on to the queue, which waits for that to finish
      // and then tells the person the real outcome; controls of the record alone need no
      // questions, and are refused then (see `Control.recordOnly`). Undo acts on a held
      // decision alone, and needs no questions either.
      const held = control?.whileHeld === true;
      const recordOnly = control?.recordOnly === true || held;
      const also = held ? 'held' : recordOnly ? undefined : 'submitting';
      const refusal =
        refusalFor(found?.record, { revision: ids.revision, also }) ??
        (found?.batch || recordOnly ? undefined : OUT_OF_DATE);
      if (refusal || !found) {
        log.info({ key: ids.key, user: place.user, refusal: refusal?.kind }, 'action refused');
        await tell(explainRefusal(refusal ?? { kind: 'unknown' }));
        return;
      }
      if (!decoded || !control) {
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
      await control.handle(click, decoded, deps);
    },
  );
}
