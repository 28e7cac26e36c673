import { createHash } from 'node:crypto';
import type { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { stampIteration } from '../../core/slack/layout/stamp-iteration.js';
import { remedyFor, slackErrorCode } from './slack-errors.js';
import type { MessageCopy } from './slack-presentation.js';

type WebClient = webApi.WebClient;

/** A message as it is sent: its text and its blocks. */
export type Message = { text: string; blocks: unknown[] };

/** One copy of a batch's messages as it stood, for `sync` to bring up to date. */
export type KnownCopy = Omit<MessageCopy, 'channel' | 'ts'> & { ts?: string | undefined };

/** Posts batches' messages, and keeps one copy of them in one conversation in step. */
export interface MessageCopies {
  /** Posts `message` in `where` (in the thread of `threadTs`); gives its ts. */
  post(message: Message, where: string, threadTs?: string): Promise<string>;
  /**
   * Posts or updates one copy of `messages` (the first message, the rest as thread replies)
   * in `where`, starting from `existing`; `created` is told whenever a message is posted. A
   * message whose content changed is sent stamped with `iteration` (see `stampIteration`);
   * an unchanged one is not sent. A message that is gone or cannot be edited any more is
   * posted anew, and replies the batch no longer needs say so.
   */
  sync(
    where: string,
    existing: KnownCopy,
    messages: Message[],
    iteration: number,
    created: (copy: MessageCopy) => Promise<void>,
  ): Promise<MessageCopy>;
}

/** A thread reply the batch no longer needs (it got shorter, e.g. once answered). */
const UNUSED_REPLY: Message = { text: '(This part of the batch is no longer needed.)', blocks: [] };

/** What identifies a message's content, to skip edits that would change nothing. */
const contentHash = (message: Message): string =>
  createHash('sha256').update(JSON.stringify(message)).digest('base64url').slice(0, 16);

/** Whether a message of ours is gone or can no longer be edited: it is posted anew. */
const isGone = (err: unknown): boolean => remedyFor(err) === 'post-anew';

/** Message copies through `client`: posted once, then only ever updated. */
export function createMessageCopies(deps: { client: WebClient; log: Logger }): MessageCopies {
  const { client, log } = deps;

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

  async function sync(
    where: string,
    existing: KnownCopy,
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

  return { post, sync };
}
