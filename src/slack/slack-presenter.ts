import path from 'node:path';
import type { webApi } from '@slack/bolt';

type WebClient = webApi.WebClient;

import type { Logger } from 'pino';
import { isEnvelopeBatch } from '../core/envelope/envelope-batch.js';
import { formatProtocolError } from '../core/protocol/protocol-error.js';
import { questionFileName } from '../core/protocol/qa-file-names.js';
import type { BatchView } from '../core/slack/batch-view.js';
import { renderBatchMessages } from '../core/slack/render-batch-messages.js';
import { renderMalformedMessage } from '../core/slack/render-malformed.js';
import type { PresentContext, Presenter } from '../queue/presenter.js';
import { type BatchRecord, FINAL_STATUSES } from '../store/batch-record.js';
import { readPresentation, type SlackPresentation } from './slack-presentation.js';

type Message = { text: string; blocks: unknown[] };

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

  async function post(message: Message, threadTs?: string): Promise<string> {
    const res = await client.chat.postMessage({
      channel,
      text: message.text,
      blocks: message.blocks as never,
      unfurl_links: false,
      unfurl_media: false,
      ...(threadTs ? { thread_ts: threadTs } : {}),
    });
    if (!res.ts) throw new Error(`chat.postMessage to ${channel} returned no ts`);
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

  return {
    async sync(record: BatchRecord, ctx: PresentContext, save) {
      const shown = readPresentation(record.presentation);
      if (!shown && FINAL_STATUSES.includes(record.status)) {
        return {}; // never shown and already over: nothing to tell anyone
      }
      const messages = messagesFor(record, ctx);
      const first = messages[0] as Message;
      const where = shown?.channel ?? channel;
      let ts = shown?.ts;
      const replies = [...(shown?.replies ?? [])];
      if (ts) await update(ts, first, where);
      else {
        ts = await post(first);
        await save({ channel: where, ts, replies });
      }
      for (const [index, message] of messages.slice(1).entries()) {
        const replyTs = replies[index];
        if (replyTs) await update(replyTs, message, where);
        else {
          replies.push(await post(message, ts));
          await save({ channel: where, ts, replies });
        }
      }
      for (const extra of replies.slice(messages.length - 1)) {
        await update(extra, { text: 'Continued above.', blocks: [] }, where);
      }
      log.debug(
        { runDir: record.runDir, seq: record.seq, status: record.status, ts },
        'batch shown',
      );
      const presentation: SlackPresentation = { channel: where, ts, replies };
      return presentation;
    },
  };
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
    ctx.batch && isEnvelopeBatch(ctx.batch) ? { followUpText: record.followUps ?? {} } : undefined;
  return {
    ...(envelope ? { envelope } : {}),
    key: record.key,
    revision: record.fingerprint.slice(0, 8),
    runName: path.basename(record.runDir),
    runDir: record.runDir,
    seq: record.seq,
    questions: ctx.batch?.questions ?? [],
    // Choices made here were not what the agent got when another tool answered first.
    drafts: shownAnswers(record, ctx),
    state,
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
      return ctx.answersElsewhere ?? {};
    case 'withdrawn':
    case 'run-removed':
    case 'cancelled':
      return {};
    default:
      return record.drafts;
  }
}
