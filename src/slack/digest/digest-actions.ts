import type { App, BlockAction } from '@slack/bolt';
import type { Logger } from 'pino';
import { refusalFor } from '../../core/batch/refusal.js';
import { quickBatch } from '../../core/digest/quick-batch.js';
import { renderApproveAll } from '../../core/digest/render-approve-all.js';
import { actionIdPattern, DIGEST_CONTROLS, parseBlockId } from '../../core/slack/controls/ids.js';
import {
  explainRefusal,
  explainSubmit,
  explainUndo,
  FORM_NOT_OPENED,
} from '../../core/slack/outcome-text.js';
import type { BatchActions } from '../../queue/actions/batch-actions.js';
import { NOT_THIS_BATCH, REFUSED_FOREIGN, sourceOfAction } from '../access/action-binding.js';
import type { ModalSeal } from '../access/modal-seal.js';
import { readPresentation } from '../presenting/slack-presentation.js';
import { placeOfAction, tellUser } from '../presenting/tell-user.js';
import type { DigestKeeper } from './digest-keeper.js';

/** What the digest's buttons need. */
export interface DigestActionDeps {
  actions: BatchActions;
  digest: DigestKeeper;
  seal: ModalSeal;
  log: Logger;
  now: () => Date;
}

/** What a person is told when a digest line's button names a batch it cannot answer. */
export const NOT_QUICK_NOW =
  'This batch can no longer be answered from the digest; answer it on its own message.';

/**
 * The digest's buttons: a line's answer, and Approve all. Each is acknowledged first, then
 * bound to the digest message it came from: the channel's digest as the relay keeps it, and
 * a batch of that channel. A line's answer is the one the batch's quick form offers at that
 * index, never a label the payload carries; it is written like a one-tap answer.
 */
export function registerDigestActions(app: App, deps: DigestActionDeps): void {
  const log = deps.log.child({ component: 'digest' });
  const pattern = actionIdPattern(Object.values(DIGEST_CONTROLS));

  app.action<BlockAction>(pattern, async ({ ack, body, action, client, context }) => {
    await ack();
    const place = placeOfAction(body);
    const tell = (text: string) => tellUser(client, log, place, text);
    const source = sourceOfAction(context);
    if (source?.kind !== 'message' || !deps.digest.isDigest(source.channel, source.ts)) {
      log.warn({ user: place.user, action: action.action_id }, REFUSED_FOREIGN);
      await tell(NOT_THIS_BATCH);
      return;
    }
    if (action.action_id === DIGEST_CONTROLS.approveAll) {
      const items = await deps.digest.items(source.channel);
      const target = { channel: source.channel, at: deps.now().toISOString() };
      try {
        const view = deps.seal.seal(renderApproveAll(items, place.user, target));
        await client.views.open({ trigger_id: body.trigger_id, view: view as never });
      } catch (err) {
        log.warn({ err, user: place.user }, 'could not open the Approve all form');
        await tell(FORM_NOT_OPENED);
      }
      return;
    }
    const ids = 'block_id' in action ? parseBlockId(action.block_id) : undefined;
    if (!ids?.digest) {
      log.warn(
        { action: action.action_id },
        'digest action on an element the relay did not render',
      );
      return;
    }
    const found = await deps.actions.lookup(ids.key);
    if (found && readPresentation(found.record.presentation)?.channel !== source.channel) {
      log.warn({ key: ids.key, user: place.user, from: 'digest' }, REFUSED_FOREIGN);
      await tell(NOT_THIS_BATCH);
      return;
    }
    if (action.action_id.startsWith(`${DIGEST_CONTROLS.undo}:`)) {
      const outcome = await deps.actions.undo(ids.key, { by: place.user });
      if (outcome.kind === 'undone')
        log.info({ key: ids.key, user: place.user }, 'held answer undone from the digest');
      else await tell(explainUndo(outcome));
      return;
    }
    const refusal = refusalFor(found?.record, { revision: ids.revision, also: 'submitting' });
    if (refusal || !found) {
      log.info({ key: ids.key, user: place.user, refusal: refusal?.kind }, 'action refused');
      await tell(explainRefusal(refusal ?? { kind: 'unknown' }));
      return;
    }
    const quick = found.batch && quickBatch(found.batch);
    const value = 'value' in action ? Number(action.value) : Number.NaN;
    const choice = quick?.choices[value];
    if (!quick || !choice) {
      await tell(NOT_QUICK_NOW);
      return;
    }
    const outcome = await deps.actions.submit(ids.key, {
      revision: ids.revision,
      by: place.user,
      tapped: { questionId: quick.question.id, answer: choice.answer },
      via: 'digest',
    });
    const clickLog = log.child({ key: ids.key, user: place.user });
    if (outcome.kind === 'answered' || outcome.kind === 'held')
      clickLog.info(
        outcome.kind === 'held'
          ? 'batch answered from the digest, held for Undo'
          : 'batch answered from the digest',
      );
    else if (outcome.kind === 'incomplete' || outcome.kind === 'needs-text')
      await tell(NOT_QUICK_NOW);
    else await tell(explainSubmit(outcome));
  });
}
