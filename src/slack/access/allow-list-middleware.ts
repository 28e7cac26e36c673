import type { AnyMiddlewareArgs, Context, Middleware, webApi } from '@slack/bolt';

type WebClient = webApi.WebClient;

import type { Logger } from 'pino';
import { mrkdwnSection } from '../../core/slack/layout/block-builders.js';
import { interactionOf } from '../transport/interaction-guard.js';
import type { Interaction } from '../transport/interaction-payload.js';
import { type AllowList, isAllowed, REFUSAL_PLAIN, refusalMrkdwn } from './allow-list.js';
import type { GroupMemberSource } from './allow-list-groups.js';
import { lookupTimeLeft } from './lookup-budget.js';

/** Type-ahead fires on every pause in typing; one explanation a minute per batch is enough. */
const SUGGESTION_NOTICE_EVERY_MS = 60_000;

/** Options of {@link createAllowListMiddleware}. */
export interface AllowListDeps {
  allowList: AllowList;
  groups: GroupMemberSource;
  log: Logger;
  /** the clock, in milliseconds */
  now?: () => number;
}

type Ack = (response?: unknown) => Promise<void>;

/**
 * Bolt global middleware enforcing `RELAY_ALLOWED_USERS` on every interaction with something
 * the relay rendered, wherever it is (channel, thread, direct message, modal): clicks and
 * selections, type-ahead searches, and modal submissions (checked again on submit, so a modal
 * opened before someone lost access saves nothing). A refused interaction is acknowledged so
 * Slack shows no error, goes no further, is explained to the person and logged.
 */
export function createAllowListMiddleware(deps: AllowListDeps): Middleware<AnyMiddlewareArgs> {
  const { allowList, groups } = deps;
  const log = deps.log.child({ component: 'allow-list' });
  const now = deps.now ?? Date.now;
  const suggestionNotices = new Map<string, number>();

  async function allowed(user: string, context: Context): Promise<boolean> {
    if (isAllowed(user, allowList, groups.current())) return true;
    if (allowList.groups.length === 0) return false;
    // Maybe they joined a group since the last fetch; the wait comes out of the same budget
    // as the listener's own lookups, so the interaction is still answered in time.
    await groups.refreshOnMiss(lookupTimeLeft(context));
    return isAllowed(user, allowList, groups.current());
  }

  function shouldTell(seen: Interaction): boolean {
    if (seen.kind !== 'suggestion') return true;
    const id = `${seen.user}|${seen.key ?? seen.action}`;
    const at = now();
    const last = suggestionNotices.get(id);
    if (last !== undefined && at - last < SUGGESTION_NOTICE_EVERY_MS) return false;
    for (const [other, when] of suggestionNotices) {
      if (at - when >= SUGGESTION_NOTICE_EVERY_MS) suggestionNotices.delete(other);
    }
    suggestionNotices.set(id, at);
    return true;
  }

  async function tell(client: WebClient, seen: Interaction): Promise<void> {
    if (seen.kind === 'view') return; // shown under the modal's input instead
    if (!seen.channel) {
      log.warn({ user: seen.user }, 'could not explain a refusal: the payload names no channel');
      return;
    }
    const text = refusalMrkdwn(allowList);
    try {
      await client.chat.postEphemeral({
        channel: seen.channel,
        user: seen.user,
        text,
        blocks: [mrkdwnSection(text)],
        ...(seen.threadTs ? { thread_ts: seen.threadTs } : {}),
      });
    } catch (err) {
      log.warn({ err, user: seen.user, channel: seen.channel }, 'could not explain a refusal');
    }
  }

  return async (args) => {
    const seen = interactionOf(args.context);
    if (!seen || (await allowed(seen.user, args.context))) {
      await args.next();
      return;
    }
    const ack = (args as { ack?: Ack }).ack;
    if (seen.kind === 'view') {
      await ack?.(
        seen.inputBlockId
          ? { response_action: 'errors', errors: { [seen.inputBlockId]: REFUSAL_PLAIN } }
          : undefined,
      );
    } else if (seen.kind === 'suggestion') await ack?.({ options: [] });
    else await ack?.();
    log.warn(
      { user: seen.user, kind: seen.kind, action: seen.action, key: seen.key },
      'refused: this user is not in RELAY_ALLOWED_USERS',
    );
    if (shouldTell(seen)) await tell(args.client, seen);
  };
}
