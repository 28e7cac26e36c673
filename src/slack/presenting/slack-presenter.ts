import path from 'node:path';
import type { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { FINAL_STATUSES } from '../../core/batch/batch-record.js';
import type { QuestionBatch } from '../../core/protocol/questions/question.js';
import { MOST_SPLITS } from '../../core/slack/layout/message-budget.js';
import { renderRecordMessages } from '../../core/slack/messages/render-record-messages.js';
import { renderRefusedNotice } from '../../core/slack/messages/render-refused.js';
import { slackErrorKind } from '../../core/slack/slack-error-kinds.js';
import type { Presenter } from '../../queue/presenter.js';
import { syncHandOffCopies } from './hand-off-copies.js';
import { announceHandOffs } from './hand-off-notices.js';
import { createMessageCopies } from './message-copy.js';
import { remedyFor, slackErrorCode } from './slack-errors.js';
import {
  type MessageCopy,
  type PresentationState,
  readPresentation,
  type SlackPresentation,
} from './slack-presentation.js';

type WebClient = webApi.WebClient;

/**
 * Shows each batch as one channel message (plus thread replies when it does not fit) and
 * keeps that message in step with the batch: posted once, then only ever updated. A batch is
 * posted in its run's channel (`channelFor`), and stays in the channel it was posted in. A
 * batch handed to people has a copy in each one's direct messages, and each hand-off is told
 * in the channel message's thread.
 */
export function createSlackPresenter(deps: {
  client: WebClient;
  /**
   * the channel a run's batches are posted in, by its folder, and by the batch for one the
   * relay wrote on a project's behalf
   */
  channelFor: (runDir: string, batch?: QuestionBatch) => string;
  log: Logger;
}): Presenter {
  const { client, channelFor, log } = deps;
  const copies = createMessageCopies({ client, log });

  return {
    async sync(record, ctx, save) {
      const shown = readPresentation(record.presentation);
      if (!shown && FINAL_STATUSES.includes(record.status)) {
        return {}; // never shown and already over: nothing to tell anyone
      }
      const where = shown?.channel ?? channelFor(record.runDir, ctx.batch);
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
          main = await copies.sync(
            where,
            presentation.ts ? presentation : { replies: [] },
            messages,
            iteration,
            (copy) => keep({ ...presentation, ...copy, iteration }),
          );
          presentation = { ...presentation, ...main };
          await syncHandOffCopies(record, messages, iteration, state, { client, copies });
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
      await announceHandOffs(record, main, state, copies);
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
}

/** Whether any message of the batch was sent stamped with `iteration`. */
const usedIteration = (shown: SlackPresentation, iteration: number): boolean =>
  [shown, ...(shown.copies ?? [])].some((copy) => copy.stamps?.includes(iteration));
