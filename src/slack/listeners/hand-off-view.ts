import type { App, ViewSubmitAction, webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { handOffRefusal, type TargetAccount } from '../../core/batch/hand-off-refusal.js';
import { refusalFor } from '../../core/batch/refusal.js';
import { CALLBACK_IDS, HAND_OFF_INPUTS } from '../../core/slack/controls/ids.js';
import { explainHandOffRefusal, explainRefusal } from '../../core/slack/outcome-text.js';
import {
  parseHandOffMetadata,
  readHandOffSubmission,
} from '../../core/slack/views/render-hand-off-modal.js';
import type { BatchActions } from '../../queue/actions/batch-actions.js';
import { type AllowList, isAllowed } from '../access/allow-list.js';
import type { GroupMemberSource } from '../access/allow-list-groups.js';
import { lookupTimeLeft, within } from '../access/lookup-budget.js';
import { type ModalSeal, UNKNOWN_FORM } from '../access/modal-seal.js';
import { acceptOnce, type SubmittedViews } from '../access/submitted-views.js';
import { slackErrorCode } from '../presenting/slack-errors.js';
import { lookupBeforeAck } from './lookup-before-ack.js';

type WebClient = webApi.WebClient;

/** What the hand-off submission needs besides the queue: who may answer. */
export interface HandOffViewDeps {
  actions: BatchActions;
  log: Logger;
  /** opens the form's sealed metadata; a form the relay did not open names no batch */
  seal: ModalSeal;
  allowList: AllowList | undefined;
  groups: GroupMemberSource;
  /** the form submissions acted on: a replay of one changes nothing */
  submittedViews: SubmittedViews;
}

/**
 * A submitted hand-off modal: refuses a teammate who could not answer (oneself, a bot, a
 * deactivated or unknown account, someone not on the allow list) under the picker, otherwise
 * records the hand-off; the presenter then sends them the batch and tells the thread. What
 * Slack is asked first (the target's account, and the allow list's groups when the target is
 * not in them yet) shares one budget, so the modal is answered within Slack's 3 s.
 */
export function registerHandOffView(app: App, deps: HandOffViewDeps): void {
  const { actions } = deps;
  const log = deps.log.child({ component: 'hand-off' });

  app.view<ViewSubmitAction>(CALLBACK_IDS.handOff, async ({ ack, body, view, client, context }) => {
    const from = body.user.id;
    const errorOn = (blockId: string, text: string) =>
      ack({ response_action: 'errors', errors: { [blockId]: text } });
    const meta = parseHandOffMetadata(deps.seal.open(view.private_metadata) ?? '');
    const looked = await lookupBeforeAck(actions, meta?.key, (text) =>
      errorOn(HAND_OFF_INPUTS.user.blockId, text),
    );
    if (!looked) return;
    const { found } = looked;
    const gone = refusalFor(found?.record, { revision: meta?.revision });
    const closed = gone ? explainRefusal(gone) : undefined;
    if (closed || !meta) {
      await errorOn(HAND_OFF_INPUTS.user.blockId, closed ?? UNKNOWN_FORM);
      return;
    }
    const { to, note } = readHandOffSubmission(view.state.values as never);
    if (!to) {
      await errorOn(HAND_OFF_INPUTS.user.blockId, 'Pick the teammate to hand this batch to.');
      return;
    }
    const wait = lookupTimeLeft(context);
    const [account, allowed] = await Promise.all([
      targetAccount(client, log, to, wait),
      allowedWithin(deps, to, wait),
    ]);
    const refusal = handOffRefusal({ from, to, account, allowed });
    if (refusal) {
      log.info({ key: meta.key, from, to, account }, 'hand-off refused');
      await errorOn(HAND_OFF_INPUTS.user.blockId, explainHandOffRefusal(refusal));
      return;
    }
    const refuse = (text: string) => errorOn(HAND_OFF_INPUTS.user.blockId, text);
    const once = { submitted: deps.submittedViews, submission: view, ack, refuse, log };
    if (!(await acceptOnce(once))) return;
    const outcome = await actions.handOff(meta.key, { revision: meta.revision, from, to, note });
    // A batch that closed between the check above and now is simply not handed off; its
    // message already shows why.
    log.info({ key: meta.key, from, to, outcome: outcome.kind }, 'hand-off');
  });
}

/**
 * Whether the target may answer; someone not among the groups' known members may have joined
 * one since the last fetch, so the groups are fetched again, waiting at most `wait` ms.
 */
async function allowedWithin(deps: HandOffViewDeps, to: string, wait: number): Promise<boolean> {
  const allowed = () => isAllowed(to, deps.allowList, deps.groups.current());
  if (allowed() || !deps.allowList || deps.allowList.groups.length === 0) return allowed();
  await deps.groups.refreshOnMiss(wait);
  return allowed();
}

/**
 * What Slack's `users.info` says of the target, waiting at most `wait` ms (a rate-limited
 * lookup waits for Retry-After); `unknown` when it failed or took too long.
 */
async function targetAccount(
  client: WebClient,
  log: Logger,
  user: string,
  wait: number,
): Promise<TargetAccount> {
  const lookup = client.users.info({ user }).then(
    ({ user: found }): TargetAccount => {
      if (found?.deleted) return 'deactivated';
      return found?.is_bot === true || found?.id === 'USLACKBOT' ? 'bot' : 'person';
    },
    (err: unknown): TargetAccount => {
      if (slackErrorCode(err) === 'user_not_found') return 'not-found';
      log.warn({ err, user }, 'could not look the hand-off target up; refusing it');
      return 'unknown';
    },
  );
  const account = await within(lookup, wait);
  if (account) return account;
  log.warn({ user, waitedMs: wait }, 'hand-off target lookup too slow; refusing it');
  return 'unknown';
}
