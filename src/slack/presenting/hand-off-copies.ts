import type { webApi } from '@slack/bolt';
import { type BatchRecord, FINAL_STATUSES } from '../../core/batch/batch-record.js';
import { SLACK_USER_ID } from '../../core/slack/controls/slack-id-shapes.js';
import { slackErrorKind } from '../../core/slack/slack-error-kinds.js';
import { CopyRefused } from '../../queue/presenter.js';
import type { Message, MessageCopies } from './message-copy.js';
import { slackErrorCode } from './slack-errors.js';
import type { MessageCopy, PresentationState, SlackPresentation } from './slack-presentation.js';

type WebClient = webApi.WebClient;

/**
 * Keeps a copy of the batch in the direct messages of everyone it was handed to (people,
 * not user groups, which have no direct messages): sent once, then updated like the channel
 * message, so answers made in either place show in both. A copy that cannot reach its person
 * (deactivated, unknown, no direct messages) throws `CopyRefused`: the hand-off ends there.
 */
export async function syncHandOffCopies(
  record: BatchRecord,
  messages: Message[],
  iteration: number,
  state: PresentationState,
  deps: { client: WebClient; copies: MessageCopies },
): Promise<void> {
  const handoffs = record.handoffs ?? [];
  // a person whose last hand-off could not reach them gets no copy (any more)
  const lastTo = new Map(handoffs.map((h) => [h.to, h] as const));
  const people = [...lastTo.values()]
    // people have direct messages, user groups do not
    .filter((h) => SLACK_USER_ID.test(h.to) && !h.undelivered)
    .map((h) => h.to);
  for (const user of people) {
    try {
      await syncCopyOf(user, record, messages, iteration, state, deps);
    } catch (err) {
      const code = slackErrorCode(err);
      const scope = code ? slackErrorKind(code).scope : undefined;
      // on a direct message, a channel problem is one of this person's too
      if (code && (scope === 'person' || scope === 'channel')) {
        throw new CopyRefused(user, code, { cause: err });
      }
      throw err;
    }
  }
}

/** The copy of the batch in `user`'s direct messages, sent or brought up to date. */
async function syncCopyOf(
  user: string,
  record: BatchRecord,
  messages: Message[],
  iteration: number,
  { current, set, keep }: PresentationState,
  deps: { client: WebClient; copies: MessageCopies },
): Promise<void> {
  const known = current().copies?.find((c) => c.user === user);
  // a batch that ended before it was handed on is not sent to anyone new
  if (!known && FINAL_STATUSES.includes(record.status)) return;
  const dm = known?.channel ?? (await directChannel(deps.client, user));
  const withCopy = (copy: MessageCopy): SlackPresentation => {
    const others = (current().copies ?? []).filter((c) => c.user !== user);
    return { ...current(), copies: [...others, { ...copy, user }] };
  };
  const copy = await deps.copies.sync(
    dm,
    { ts: known?.ts, replies: known?.replies ?? [], sent: known?.sent, stamps: known?.stamps },
    messages,
    iteration,
    (made) => keep({ ...withCopy(made), iteration }),
  );
  const next = withCopy(copy);
  const before = current().copies?.find((c) => c.user === user);
  // a new message is stored at once; an edit only needs to be in what `sync` returns
  if (!before || before.ts !== copy.ts || before.replies.length !== copy.replies.length) {
    await keep(next);
  } else set(next);
}

/** The direct-message channel with a person, opened (or found) by Slack. */
async function directChannel(client: WebClient, user: string): Promise<string> {
  const res = await client.conversations.open({ users: user });
  const id = res.channel?.id;
  if (!id) throw new Error(`conversations.open for ${user} returned no channel id`);
  return id;
}
