import type { App, ViewSubmitAction } from '@slack/bolt';
import type { Logger } from 'pino';
import { refusalFor } from '../../core/batch/refusal.js';
import { describeApproveAll, type Skipped } from '../../core/digest/approve-all-result.js';
import { digestItemOf, digestTitle } from '../../core/digest/digest-item.js';
import {
  leftOutBecause,
  type PickedBatch,
  parseApproveAllTarget,
  readApproveAllPicks,
} from '../../core/digest/render-approve-all.js';
import { CALLBACK_IDS } from '../../core/slack/controls/ids.js';
import { mrkdwnSection } from '../../core/slack/layout/block-builders.js';
import type { BatchActions } from '../../queue/actions/batch-actions.js';
import { type ModalSeal, UNKNOWN_FORM } from '../access/modal-seal.js';
import { acceptOnce, type SubmittedViews } from '../access/submitted-views.js';
import { readPresentation } from '../presenting/slack-presentation.js';
import { tellUser } from '../presenting/tell-user.js';

/** What the Approve all form's submission needs. */
export interface ApproveAllDeps {
  actions: BatchActions;
  seal: ModalSeal;
  submittedViews: SubmittedViews;
  log: Logger;
}

/** How many batches of one Approve all are written at once. */
const AT_ONCE = 4;

/**
 * A confirmed Approve all: acknowledged at once (closing the form), then each ticked batch is
 * answered with its default answer, as if its line's button were pressed, and the person is
 * told privately what was answered and what was skipped and why. Only batches the form could
 * have listed are answered: of its channel, made before it opened, quick with a default
 * answer, still at the revision listed, and not someone else's.
 */
export function registerApproveAllView(app: App, deps: ApproveAllDeps): void {
  const log = deps.log.child({ component: 'digest' });

  app.view<ViewSubmitAction>(CALLBACK_IDS.approveAll, async ({ ack, body, view, client }) => {
    const user = body.user.id;
    const target = parseApproveAllTarget(deps.seal.open(view.private_metadata));
    if (!target) {
      await ack();
      log.warn(
        { user },
        `an Approve all form the relay did not seal; nothing answered. ${UNKNOWN_FORM}`,
      );
      return;
    }
    const refuse = async (text: string) => {
      await ack();
      await tellUser(client, log, { user, channel: target.channel }, text);
    };
    const once = {
      submitted: deps.submittedViews,
      submission: view,
      ack: () => ack(),
      refuse,
      log,
    };
    if (!(await acceptOnce(once))) return;
    const picks = readApproveAllPicks(view.state.values as never);
    const answered: string[] = [];
    const skipped: Skipped[] = [];
    let held = 0;
    const queue = [...picks];
    const work = async () => {
      for (let pick = queue.shift(); pick; pick = queue.shift()) {
        const result = await approveOne(pick, user, target, deps);
        if (result.kind === 'skipped') skipped.push(result);
        else {
          answered.push(result.title);
          if (result.held) held += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, work));
    log.info(
      { user, channel: target.channel, answered: answered.length, skipped: skipped.length },
      'Approve all confirmed',
    );
    const text = describeApproveAll(answered, skipped, picks.length, held);
    await client.chat
      .postEphemeral({ channel: target.channel, user, text, blocks: [mrkdwnSection(text)] })
      .catch((err: unknown) => log.warn({ err, user }, 'could not tell the result of Approve all'));
  });
}

/** One ticked batch answered with its default answer, or why it was skipped. */
async function approveOne(
  pick: PickedBatch,
  user: string,
  target: { channel: string; at: string },
  deps: ApproveAllDeps,
): Promise<{ kind: 'answered'; title: string; held: boolean } | Skipped> {
  const found = await deps.actions.lookup(pick.key);
  const record = found?.record;
  const item = record && found.batch && digestItemOf(record, found.batch);
  const title = record ? digestTitle(record, found.batch) : 'a batch';
  if (!record || readPresentation(record.presentation)?.channel !== target.channel) {
    return { kind: 'skipped', title, why: 'not a batch of this digest' };
  }
  if (record.createdAt > target.at)
    return { kind: 'skipped', title, why: 'not listed in the form' };
  const refusal = refusalFor(record, { revision: pick.revision });
  if (refusal) {
    const why =
      refusal.kind === 'closed' && record.answeredBy
        ? { by: record.answeredBy }
        : { why: refusal.kind === 'out-of-date' ? 'its questions changed' : 'closed already' };
    return { kind: 'skipped', title, ...why };
  }
  const left = item ? leftOutBecause(item, user) : 'it is no longer a quick question';
  if (!item?.quick.approve || left)
    return { kind: 'skipped', title, why: left ?? 'no default answer' };
  const outcome = await deps.actions.submit(pick.key, {
    revision: pick.revision,
    by: user,
    tapped: { questionId: item.quick.question.id, answer: item.quick.approve.answer },
    via: 'approve-all',
  });
  if (outcome.kind === 'answered' || outcome.kind === 'held')
    return { kind: 'answered', title, held: outcome.kind === 'held' };
  const after = (await deps.actions.lookup(pick.key))?.record;
  if (after?.answeredBy && after.answeredBy !== user)
    return { kind: 'skipped', title, by: after.answeredBy };
  return {
    kind: 'skipped',
    title,
    why: outcome.kind === 'answered-elsewhere' ? 'answered in another tool' : outcome.kind,
  };
}
