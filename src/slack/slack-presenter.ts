import { createHash } from 'node:crypto';
import path from 'node:path';
import type { webApi } from '@slack/bolt';

type WebClient = webApi.WebClient;

import type { Logger } from 'pino';
import { type BatchRecord, FINAL_STATUSES, type Handoff } from '../core/batch/batch-record.js';
import { MOST_SPLITS } from '../core/slack/message-budget.js';
import { renderRecordMessages } from '../core/slack/render-record-messages.js';
import { renderRefusedNotice } from '../core/slack/render-refused.js';
import { renderHandoffNotice, renderUndeliveredNotice } from '../core/slack/render-team.js';
import { type SlackErrorRemedy, slackErrorKind } from '../core/slack/slack-error-kinds.js';
import { SLACK_USER_ID } from '../core/slack/slack-id-shapes.js';
import { stampIteration } from '../core/slack/stamp-iteration.js';
import { CopyRefused, type PresentContext, type Presenter } from '../queue/presenter.js';
import { slackErrorCode } from './slack-errors.js';
import {
  type MessageCopy,
  readPresentation,
  type SlackPresentation,
} from './slack-presentation.js';

type Message = { text: string; blocks: unknown[] };

/** A thread reply the batch no longer needs (it got shorter, e.g. once answered). */
const UNUSED_REPLY: Message = { text: '(This part of the batch is no longer needed.)', blocks: [] };

/** The presentation a sync is building: read it, change it in memory, or store it at once. */
interface PresentationState {
  current(): SlackPresentation;
  set(next: SlackPresentation): void;
  keep(next: SlackPresentation): Promise<void>;
}

/** What identifies a message's content, to skip edits that would change nothing. */
const contentHash = (message: Message): string =>
  createHash('sha256').update(JSON.stringify(message)).digest('base64url').slice(0, 16);

/**
 * Shows each batch as one channel message (plus thread replies when it does not fit) and
 * keeps that message in step with the batch: posted once, then only ever updated. A batch is
 * posted in its run's channel (`channelFor`), and stays in the channel it was posted in.
 */
export function createSlackPresenter(deps: {
  client: WebClient;
  /** the channel a run's batches are posted in, by its folder */
  channelFor: (runDir: string) => string;
  log: Logger;
}): Presenter {
  const { client, channelFor, log } = deps;

  async function post(message: Message, where: string, threadTs?: string): Promise<string> {
    const res = await client.chat.postMessage({
      channel: where,
      text: message.text,
      blocks: message.blocks as never,
      unfurl_links: false,
      unfurl_media: false,
      ...(threadTs ? { thread_ts: threadTs } : {}),
    });
    if (!res.ts) throw new Error(`chat.postMessage to ${where} returned no ts`);
    return res.ts;
  }

  async function update(ts: string, message: Message, where: string): Promise<void> {
    await client.chat.update({
      channel: where,
      ts,
      text: message.text,
      blocks: message.blocks as never,
    });
  }

  /**
   * Posts or updates one copy of the messages; `created` is told whenever a message is posted.
   * A message whose content changed is sent stamped with `iteration` (see `stampIteration`).
   */
  async function syncCopy(
    where: string,
    existing: Omit<MessageCopy, 'channel' | 'ts'> & { ts?: string | undefined },
    messages: Message[],
    iteration: number,
    created: (copy: MessageCopy) => Promise<void>,
  ): Promise<MessageCopy> {
    const first = messages[0] as Message;
    let ts = existing.ts;
    let replies = [...existing.replies];
    let sent = [...(existing.sent ?? [])];
    let stamps = [...(existing.stamps ?? [])];
    const stamped = (message: Message): Message => stampIteration(message, iteration);
    const sentAs = (index: number, message: Message) => {
      sent[index] = contentHash(message);
      stamps[index] = iteration;
    };
    const copy = (): MessageCopy => ({
      channel: where,
      ts: ts as string,
      replies: [...replies],
      sent: [...sent],
      stamps: [...stamps],
    });
    // Edits go only to messages whose content changed: a tick in a long batch costs one call.
    const updateIfChanged = async (index: number, at: string, message: Message) => {
      if (sent[index] === contentHash(message)) return;
      await update(at, stamped(message), where);
      sentAs(index, message);
    };
    if (ts) {
      try {
        await updateIfChanged(0, ts, first);
      } catch (err) {
        if (!isGone(err)) throw err;
        // Someone deleted the message (or it can no longer be edited): post it again rather
        // than retrying an edit forever.
        log.warn(
          { channel: where, ts, code: slackErrorCode(err) },
          'batch message is gone or cannot be edited; posting it again',
        );
        ts = undefined;
        replies = [];
        sent = [];
        stamps = [];
      }
    }
    if (!ts) {
      ts = await post(stamped(first), where);
      sentAs(0, first);
      await created(copy());
    }
    const postReply = async (index: number, message: Message) => {
      replies[index] = await post(stamped(message), where, ts);
      sentAs(index + 1, message);
      await created(copy());
    };
    for (const [index, message] of messages.slice(1).entries()) {
      const replyTs = replies[index];
      if (!replyTs) {
        await postReply(index, message);
        continue;
      }
      try {
        await updateIfChanged(index + 1, replyTs, message);
      } catch (err) {
        if (!isGone(err)) throw err;
        log.warn(
          { channel: where, ts: replyTs, code: slackErrorCode(err) },
          'a continuation of the batch is gone or cannot be edited; posting it again',
        );
        await postReply(index, message);
      }
    }
    for (const [index, extra] of replies.slice(messages.length - 1).entries()) {
      try {
        await updateIfChanged(messages.length + index, extra, UNUSED_REPLY);
      } catch (err) {
        if (!isGone(err)) throw err;
        sentAs(messages.length + index, UNUSED_REPLY); // no longer needed, and gone: leave it
      }
    }
    return copy();
  }

  /** The direct-message channel with a person, opened (or found) by Slack. */
  async function directChannel(user: string): Promise<string> {
    const res = await client.conversations.open({ users: user });
    const id = res.channel?.id;
    if (!id) throw new Error(`conversations.open for ${user} returned no channel id`);
    return id;
  }

  return {
    async sync(record: BatchRecord, ctx: PresentContext, save) {
      const shown = readPresentation(record.presentation);
      if (!shown && FINAL_STATUSES.includes(record.status)) {
        return {}; // never shown and already over: nothing to tell anyone
      }
      const where = shown?.channel ?? channelFor(record.runDir);
      let presentation: SlackPresentation = shown ?? { channel: where, ts: '', replies: [] };
      const state: PresentationState = {
        current: () => presentation,
        set(next) {
          presentation = next;
        },
        async keep(next) {
          presentation = next;
          await save({ ...next });
        },
      };
      const { keep } = state;
      // One iteration for every message this sync sends; it only ever grows.
      const iteration = (shown?.iteration ?? 0) + 1;
      let main: MessageCopy;
      for (;;) {
        const split = presentation.split ?? 0;
        const messages = renderRecordMessages(record, ctx, split);
        try {
          main = await syncCopy(
            where,
            presentation.ts ? presentation : { replies: [] },
            messages,
            iteration,
            (copy) => keep({ ...presentation, ...copy, iteration }),
          );
          presentation = { ...presentation, ...main };
          await syncDirectCopies(record, messages, iteration, state);
          break;
        } catch (err) {
          if (remedyFor(err) !== 'split-smaller' || split >= MOST_SPLITS) throw err;
          const code = slackErrorCode(err);
          // Slack's size ceiling is unpublished and moves: lay the batch out smaller, again.
          log.warn(
            { runDir: record.runDir, seq: record.seq, code, split: split + 1 },
            'Slack refused a message of the batch as too long; splitting it smaller',
          );
          await keep({ ...presentation, split: split + 1 });
        }
      }
      if (usedIteration(presentation, iteration)) presentation = { ...presentation, iteration };
      await announceHandoffs(record, main, state);
      log.debug(
        { runDir: record.runDir, seq: record.seq, status: record.status, ts: main.ts },
        'batch shown',
      );
      return presentation;
    },

    async tellRefused(record, refusal, questionFile) {
      const { scope } = slackErrorKind(refusal.code);
      // Nothing can be posted where the channel or the app itself is the problem.
      if (scope === 'channel' || scope === 'app') return false;
      const shown = readPresentation(record.presentation);
      const text = renderRefusedNotice({
        runName: path.basename(record.runDir),
        seq: record.seq,
        questionFile,
        code: refusal.code,
        fix: refusal.fix,
      });
      try {
        await client.chat.postMessage({
          channel: shown?.channel ?? channelFor(record.runDir),
          text,
          ...(shown?.ts ? { thread_ts: shown.ts } : {}),
        });
        return true;
      } catch (err) {
        log.warn(
          { err, runDir: record.runDir, seq: record.seq },
          'could not post the notice that the batch cannot be shown',
        );
        return false;
      }
    },
  };

  /**
   * Keeps a copy of the batch in the direct messages of everyone it was handed to (people,
   * not user groups, which have no direct messages): sent once, then updated like the channel
   * message, so answers made in either place show in both.
   */
  async function syncDirectCopies(
    record: BatchRecord,
    messages: Message[],
    iteration: number,
    { current, set, keep }: PresentationState,
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
        await syncDirectCopy(user);
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

    async function syncDirectCopy(user: string): Promise<void> {
      const known = current().copies?.find((c) => c.user === user);
      // a batch that ended before it was handed on is not sent to anyone new
      if (!known && FINAL_STATUSES.includes(record.status)) return;
      const dm = known?.channel ?? (await directChannel(user));
      const withCopy = (copy: MessageCopy): SlackPresentation => {
        const others = (current().copies ?? []).filter((c) => c.user !== user);
        return { ...current(), copies: [...others, { ...copy, user }] };
      };
      const copy = await syncCopy(
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
  }

  /** Says in the channel message's thread who handed the batch to whom, once per hand-off. */
  async function announceHandoffs(
    record: BatchRecord,
    main: MessageCopy,
    { current, keep }: PresentationState,
  ): Promise<void> {
    const handoffs = record.handoffs ?? [];
    for (let index = current().announced ?? 0; index < handoffs.length; index += 1) {
      const handoff = handoffs[index] as Handoff;
      await post(
        renderHandoffNotice({ ...handoff, at: new Date(handoff.at) }),
        main.channel,
        main.ts,
      );
      await keep({ ...current(), announced: index + 1 });
    }
    for (const [index, handoff] of handoffs.entries()) {
      const told = current().undeliveredTold ?? [];
      if (!handoff.undelivered || told.includes(index)) continue;
      await post(
        renderUndeliveredNotice({ ...handoff, at: new Date(handoff.at) }),
        main.channel,
        main.ts,
      );
      await keep({ ...current(), undeliveredTold: [...told, index] });
    }
  }
}

/** Whether any message of the batch was sent stamped with `iteration`. */
const usedIteration = (shown: SlackPresentation, iteration: number): boolean =>
  [shown, ...(shown.copies ?? [])].some((copy) => copy.stamps?.includes(iteration));

/** What the error table says to try first about a Slack error, if it is a refusal at all. */
function remedyFor(err: unknown): SlackErrorRemedy | undefined {
  const code = slackErrorCode(err);
  return code === undefined ? undefined : slackErrorKind(code).remedy;
}

/** Whether a message of ours is gone or can no longer be edited: it is posted anew. */
const isGone = (err: unknown): boolean => remedyFor(err) === 'post-anew';
