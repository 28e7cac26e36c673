import type { App, BlockAction } from '@slack/bolt';
import type { Logger } from 'pino';
import { refusalFor } from '../../core/batch/refusal.js';
import { quickBatch } from '../../core/digest/quick-batch.js';
import { renderApproveAll } from '../../core/digest/render-approve-all.js';
import { parseDigestPagesTarget, renderDigestPage } from '../../core/digest/render-digest-pages.js';
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
import type { ActionSource } from '../transport/interaction-payload.js';
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
 * The digest's buttons: a line's answer or Undo, Approve all, and Show all with its pages.
 * Each is acknowledged first, then bound to where it came from: the channel's digest message
 * as the relay keeps it, or the pages form the relay opened from it (its sealed metadata names
 * the channel), and a batch of that channel. A line's answer is the one the batch's quick form
 * offers at that index, never a label the payload carries; it is written like a one-tap answer.
 */
export function registerDigestActions(app: App, deps: DigestActionDeps): void {
  const log = deps.log.child({ component: 'digest' });
  const pattern = actionIdPattern(Object.values(DIGEST_CONTROLS));

  app.action<BlockAction>(pattern, async ({ ack, body, action, client, context }) => {
    await ack();
    const place = placeOfAction(body);
    const tell = (text: string) => tellUser(client, log, place, text);
    const source = sourceOfAction(context);
    const from = await digestOf(source, deps);
    if (!from) {
      log.warn({ user: place.user, action: action.action_id }, REFUSED_FOREIGN);
      await tell(NOT_THIS_BATCH);
      return;
    }
    const { channel } = from;
    const kind = action.action_id.split(':', 1)[0];
    const value = 'value' in action ? Number(action.value) : Number.NaN;
    /** The pages form at `page`, opened or (from the form) shown anew. */
    const showPage = async (page: number) => {
      const view = deps.seal.seal(
        renderDigestPage(await deps.digest.items(channel), { channel, page }),
      );
      try {
        if (kind === DIGEST_CONTROLS.showAll) {
          await client.views.open({ trigger_id: body.trigger_id, view: view as never });
        } else if (body.view) {
          await client.views.update({
            view_id: body.view.id,
            hash: body.view.hash,
            view: view as never,
          });
        }
      } catch (err) {
        log.warn({ err, user: place.user }, "could not show the digest's pages");
        if (kind === DIGEST_CONTROLS.showAll) await tell(FORM_NOT_OPENED);
      }
    };
    if (kind === DIGEST_CONTROLS.approveAll && from.page === undefined) {
      const items = await deps.digest.items(channel);
      const target = { channel, at: deps.now().toISOString() };
      try {
        const view = deps.seal.seal(renderApproveAll(items, place.user, target));
        await client.views.open({ trigger_id: body.trigger_id, view: view as never });
      } catch (err) {
        log.warn({ err, user: place.user }, 'could not open the Approve all form');
        await tell(FORM_NOT_OPENED);
      }
      return;
    }
    if (kind === DIGEST_CONTROLS.showAll || kind === DIGEST_CONTROLS.page) {
      await showPage(Number.isInteger(value) && value >= 0 ? value : 0);
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
    const line = { key: ids.key, revision: ids.revision, channel, user: place.user, value };
    const told = await answerLine(line, kind === DIGEST_CONTROLS.undo, deps, log);
    if (told) await tell(told);
    // the form shows the line as it is now: held with Undo, or answering again
    if (from.page !== undefined) await showPage(from.page);
  });
}

/** Where a digest control was used: the channel's digest message, or a page of its form. */
async function digestOf(
  source: ActionSource | undefined,
  deps: Pick<DigestActionDeps, 'digest' | 'seal'>,
): Promise<{ channel: string; page?: number } | undefined> {
  if (source?.kind === 'message') {
    return (await deps.digest.isDigest(source.channel, source.ts))
      ? { channel: source.channel }
      : undefined;
  }
  if (source?.kind !== 'view') return undefined;
  return parseDigestPagesTarget(deps.seal.open(source.metadata));
}

/** One line's answer (or Undo), on a batch of the digest's channel; what to tell, if anything. */
async function answerLine(
  line: { key: string; revision: string; channel: string; user: string; value: number },
  undo: boolean,
  deps: DigestActionDeps,
  log: Logger,
): Promise<string | undefined> {
  const clickLog = log.child({ key: line.key, user: line.user });
  const found = await deps.actions.lookup(line.key);
  if (found && readPresentation(found.record.presentation)?.channel !== line.channel) {
    clickLog.warn({ from: 'digest' }, REFUSED_FOREIGN);
    return NOT_THIS_BATCH;
  }
  if (undo) {
    const outcome = await deps.actions.undo(line.key, { by: line.user });
    if (outcome.kind !== 'undone') return explainUndo(outcome);
    clickLog.info('held answer undone from the digest');
    return undefined;
  }
  const refusal = refusalFor(found?.record, { revision: line.revision, also: 'submitting' });
  if (refusal || !found) {
    clickLog.info({ refusal: refusal?.kind }, 'action refused');
    return explainRefusal(refusal ?? { kind: 'unknown' });
  }
  const quick = found.batch && quickBatch(found.batch);
  const choice = quick?.choices[line.value];
  if (!quick || !choice) return NOT_QUICK_NOW;
  const outcome = await deps.actions.submit(line.key, {
    revision: line.revision,
    by: line.user,
    tapped: { questionId: quick.question.id, answer: choice.answer },
    via: 'digest',
  });
  if (outcome.kind === 'answered' || outcome.kind === 'held') {
    clickLog.info(
      outcome.kind === 'held'
        ? 'batch answered from the digest, held for Undo'
        : 'batch answered from the digest',
    );
    return undefined;
  }
  if (outcome.kind === 'incomplete' || outcome.kind === 'needs-text') return NOT_QUICK_NOW;
  return explainSubmit(outcome);
}
