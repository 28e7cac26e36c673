import type { App, ViewSubmitAction, webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import {
  handOffRefusal,
  parseHandOffMetadata,
  readHandOffSubmission,
} from '../../core/slack/render-hand-off-modal.js';
import { HAND_OFF_CALLBACK_ID, HAND_OFF_INPUTS } from '../../core/slack/team-ids.js';
import type { BatchQueue } from '../../queue/batch-queue.js';
import { type AllowList, isAllowed } from '../allow-list.js';
import type { GroupMemberSource } from '../allow-list-groups.js';
import { explainRefusal, refusalFor } from '../tell-user.js';

type WebClient = webApi.WebClient;

/** What the hand-off submission needs besides the queue: who may answer. */
export interface HandOffViewDeps {
  queue: BatchQueue;
  log: Logger;
  allowList: AllowList | undefined;
  groups: GroupMemberSource;
}

/**
 * A submitted hand-off modal: refuses a teammate who could not answer (a bot, oneself, someone
 * not on the allow list) under the picker, otherwise records the hand-off; the presenter then
 * sends them the batch and tells the thread.
 */
export function registerHandOffView(app: App, deps: HandOffViewDeps): void {
  const { queue } = deps;
  const log = deps.log.child({ component: 'hand-off' });

  app.view<ViewSubmitAction>(HAND_OFF_CALLBACK_ID, async ({ ack, body, view, client }) => {
    const from = body.user.id;
    const errorOn = (blockId: string, text: string) =>
      ack({ response_action: 'errors', errors: { [blockId]: text } });
    const meta = parseHandOffMetadata(view.private_metadata);
    const found = meta ? await queue.lookup(meta.key) : undefined;
    const gone = refusalFor(found?.record, meta?.revision);
    const closed = gone ? explainRefusal(gone) : undefined;
    if (closed || !meta) {
      await errorOn(HAND_OFF_INPUTS.user.blockId, closed ?? 'Unknown form.');
      return;
    }
    const { to, note } = readHandOffSubmission(view.state.values as never);
    if (!to) {
      await errorOn(HAND_OFF_INPUTS.user.blockId, 'Pick the teammate to hand this batch to.');
      return;
    }
    const kind = await userKind(client, log, to);
    const refusal =
      kind === 'unknown'
        ? 'Slack could not tell who that is, so the batch was not handed off. Please try again.'
        : handOffRefusal({
            from,
            to,
            isBot: kind === 'bot',
            allowed: isAllowed(to, deps.allowList, deps.groups.current()),
          });
    if (refusal) {
      log.info({ key: meta.key, from, to }, 'hand-off refused');
      await errorOn(HAND_OFF_INPUTS.user.blockId, refusal);
      return;
    }
    await ack();
    const outcome = await queue.handOff(meta.key, { revision: meta.revision, from, to, note });
    // A batch that closed between the check above and now is simply not handed off; its
    // message already shows why.
    log.info({ key: meta.key, from, to, outcome: outcome.kind }, 'hand-off');
  });
}

/** How long the target's lookup may take: the modal's answer must reach Slack within 3 s. */
const USER_LOOKUP_WAIT_MS = 1500;

/**
 * Whether Slack says the user is a person or a bot/app; `unknown` when the lookup failed or
 * took too long (a rate-limited `users.info` waits for Retry-After).
 */
async function userKind(
  client: WebClient,
  log: Logger,
  user: string,
): Promise<'person' | 'bot' | 'unknown'> {
  const lookup = client.users.info({ user }).then(
    (res) => (res.user?.is_bot === true || res.user?.id === 'USLACKBOT' ? 'bot' : 'person'),
    (err: unknown) => {
      log.warn({ err, user }, 'could not look the hand-off target up; refusing it');
      return 'unknown' as const;
    },
  );
  let timer: NodeJS.Timeout | undefined;
  const tooSlow = new Promise<'slow'>((resolve) => {
    timer = setTimeout(() => resolve('slow'), USER_LOOKUP_WAIT_MS);
  });
  try {
    const kind = await Promise.race([lookup, tooSlow]);
    if (kind !== 'slow') return kind;
    log.warn(
      { user, waitedMs: USER_LOOKUP_WAIT_MS },
      'hand-off target lookup too slow; refusing it',
    );
    return 'unknown';
  } finally {
    clearTimeout(timer);
  }
}
