import { createHash } from 'node:crypto';
import path from 'node:path';
import type { webApi } from '@slack/bolt';

type WebClient = webApi.WebClient;

import type { Logger } from 'pino';
import { isEnvelopeBatch } from '../core/envelope/envelope-batch.js';
import { idRecord } from '../core/protocol/id-record.js';
import { formatProtocolError } from '../core/protocol/protocol-error.js';
import { questionFileName } from '../core/protocol/qa-file-names.js';
import { type BatchView, revisionOf } from '../core/slack/batch-view.js';
import { renderBatchMessages } from '../core/slack/render-batch-messages.js';
import { renderMalformedMessage } from '../core/slack/render-malformed.js';
import { renderHandoffNotice } from '../core/slack/render-team.js';
import type { PresentContext, Presenter } from '../queue/presenter.js';
import { type BatchRecord, FINAL_STATUSES, type Handoff } from '../store/batch-record.js';
import { slackErrorCode } from './slack-error-hints.js';
import {
  type MessageCopy,
  readPresentation,
  type SlackPresentation,
} from './slack-presentation.js';

/** Ids of people, who have direct messages (user groups do not). */
const DM_USER_ID = /^[UW][A-Z0-9]{2,30}$/;

type Message = { text: string; blocks: unknown[] };

/** A thread reply the batch no longer needs (it got shorter, e.g. once answered). */
const UNUSED_REPLY: Message = { text: '(This part of the batch is no longer needed.)', blocks: [] };

/** What identifies a message's content, to skip edits that would change nothing. */
const contentHash = (message: Message): string =>
  createHash('sha256').update(JSON.stringify(message)).digest('base64url').slice(0, 16);

/**
 * Shows each batch as one channel message (plus thread replies when it does not fit) and
 * keeps that message in step with the batch: posted once, then only ever updated.
 */
export function createSlackPresenter(deps: {
  client: WebClient;
  channel: string;
  log: Logger;
}): Presenter {
  const { client, channel, log } = deps;

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

  /** Posts or updates one copy of the messages; `created` is told whenever a message is posted. */
  async function syncCopy(
    where: string,
    existing: { ts?: string | undefined; replies: string[]; sent?: string[] | undefined },
    messages: Message[],
    created: (copy: MessageCopy) => Promise<void>,
  ): Promise<MessageCopy> {
    const first = messages[0] as Message;
    let ts = existing.ts;
    let replies = [...existing.replies];
    let sent = [...(existing.sent ?? [])];
    // Edits go only to messages whose content changed: a tick in a long batch costs one call.
    const updateIfChanged = async (index: number, at: string, message: Message) => {
      const hash = contentHash(message);
      if (sent[index] === hash) return;
      await update(at, message, where);
      sent[index] = hash;
    };
    if (ts) {
      try {
        await updateIfChanged(0, ts, first);
      } catch (err) {
        if (slackErrorCode(err) !== 'message_not_found') throw err;
        // Someone deleted the message: post it again rather than retrying an edit forever.
        log.warn({ channel: where, ts }, 'batch message was deleted in Slack; posting it again');
        ts = undefined;
        replies = [];
        sent = [];
      }
    }
    if (!ts) {
      ts = await post(first, where);
      sent = [contentHash(first)];
      await created({ channel: where, ts, replies: [...replies], sent: [...sent] });
    }
    for (const [index, message] of messages.slice(1).entries()) {
      const replyTs = replies[index];
      if (replyTs) await updateIfChanged(index + 1, replyTs, message);
      else {
        replies.push(await post(message, where, ts));
        sent[index + 1] = contentHash(message);
        await created({ channel: where, ts, replies: [...replies], sent: [...sent] });
      }
    }
    for (const [index, extra] of replies.slice(messages.length - 1).entries()) {
      await updateIfChanged(messages.length + index, extra, UNUSED_REPLY);
    }
    return { channel: where, ts, replies, sent };
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
      const messages = messagesFor(record, ctx);
      const where = shown?.channel ?? channel;
      let presentation: SlackPresentation = shown ?? { channel: where, ts: '', replies: [] };
      const keep = async (next: SlackPresentation) => {
        presentation = next;
        await save({ ...next });
      };
      const main = await syncCopy(
        where,
        { ts: shown?.ts, replies: shown?.replies ?? [], sent: shown?.sent },
        messages,
        (copy) => keep({ ...presentation, ...copy }),
      );
      presentation = { ...presentation, ...main };
      await syncDirectCopies(record, messages, () => presentation, keep);
      await announceHandoffs(record, main, () => presentation, keep);
      log.debug(
        { runDir: record.runDir, seq: record.seq, status: record.status, ts: main.ts },
        'batch shown',
      );
      return presentation;
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
    current: () => SlackPresentation,
    keep: (next: SlackPresentation) => Promise<void>,
  ): Promise<void> {
    const people = [...new Set((record.handoffs ?? []).map((h) => h.to))].filter((id) =>
      DM_USER_ID.test(id),
    );
    for (const user of people) {
      const known = current().copies?.find((c) => c.user === user);
      // a batch that ended before it was handed on is not sent to anyone new
      if (!known && FINAL_STATUSES.includes(record.status)) continue;
      const dm = known?.channel ?? (await directChannel(user));
      const withCopy = (copy: MessageCopy): SlackPresentation => {
        const others = (current().copies ?? []).filter((c) => c.user !== user);
        return { ...current(), copies: [...others, { ...copy, user }] };
      };
      const copy = await syncCopy(
        dm,
        { ts: known?.ts, replies: known?.replies ?? [], sent: known?.sent },
        messages,
        (made) => keep(withCopy(made)),
      );
      const next = withCopy(copy);
      const before = current().copies?.find((c) => c.user === user);
      if (!before || before.ts !== copy.ts || before.replies.length !== copy.replies.length) {
        await keep(next);
      }
    }
  }

  /** Says in the channel message's thread who handed the batch to whom, once per hand-off. */
  async function announceHandoffs(
    record: BatchRecord,
    main: MessageCopy,
    current: () => SlackPresentation,
    keep: (next: SlackPresentation) => Promise<void>,
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
  }
}

/** Chooses what people see for a record. */
function messagesFor(record: BatchRecord, ctx: PresentContext): Message[] {
  const runName = path.basename(record.runDir);
  if (record.status === 'malformed') {
    return [
      renderMalformedMessage({
        runName,
        runDir: record.runDir,
        seq: record.seq,
        fileName: questionFileName(record.seq),
        errorText: ctx.error
          ? formatProtocolError(ctx.error)
          : 'The question file could not be read.',
      }),
    ];
  }
  return renderBatchMessages(toBatchView(record, ctx));
}

/** Maps a stored record onto what the renderer draws. */
export function toBatchView(record: BatchRecord, ctx: PresentContext): BatchView {
  const at = new Date(record.answeredAt ?? record.updatedAt);
  const state = ((): BatchView['state'] => {
    switch (record.status) {
      case 'answered':
        return { kind: 'answered', by: record.answeredBy ?? 'unknown', at };
      case 'answered-elsewhere':
        return { kind: 'answered-elsewhere', at };
      case 'withdrawn':
        return { kind: 'withdrawn', at };
      case 'run-removed':
        return { kind: 'run-removed', at };
      case 'cancelled':
        return { kind: 'cancelled', by: record.answeredBy ?? 'unknown', at };
      default:
        if (record.problem) return { kind: 'submit-failed', error: record.problem };
        return record.note ? { kind: 'open', note: record.note } : { kind: 'open' };
    }
  })();
  const envelope =
    ctx.batch && isEnvelopeBatch(ctx.batch)
      ? { followUpText: record.followUps ?? idRecord<string>() }
      : undefined;
  return {
    ...(envelope ? { envelope } : {}),
    key: record.key,
    revision: revisionOf(record.fingerprint),
    runName: path.basename(record.runDir),
    runDir: record.runDir,
    seq: record.seq,
    questions: ctx.batch?.questions ?? [],
    // Choices made here were not what the agent got when another tool answered first.
    drafts: shownAnswers(record, ctx),
    state,
    team: {
      handoffs: (record.handoffs ?? []).map((h) => ({ ...h, at: new Date(h.at) })),
      ...(record.assignee ? { assignee: record.assignee } : {}),
      ...(record.claimedBy ? { claimedBy: record.claimedBy } : {}),
    },
  };
}

/**
 * The answers a message shows. Choices made in Slack are not what the agent got when another
 * tool answered first, and are no answer at all when the batch was withdrawn, cancelled or its
 * run removed.
 */
function shownAnswers(record: BatchRecord, ctx: PresentContext): BatchRecord['drafts'] {
  switch (record.status) {
    case 'answered-elsewhere':
      return ctx.answersElsewhere ?? idRecord();
    case 'withdrawn':
    case 'run-removed':
    case 'cancelled':
      return idRecord();
    default:
      return record.drafts;
  }
}
