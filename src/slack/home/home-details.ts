import type { webApi } from '@slack/bolt';

type WebClient = webApi.WebClient;

import type { Logger } from 'pino';
import type { BatchRecord } from '../../core/batch/batch-record.js';
import { parseQuestionFile } from '../../core/protocol/questions/parse-question-file.js';
import type { QuestionBatch } from '../../core/protocol/questions/question.js';
import { questionPath } from '../../core/protocol/run-folder.js';
import { messageLink } from '../../core/slack/text/message-link.js';
import type { HomeDetails } from '../../core/slack/views/render-home.js';
import { readProtocolFile } from '../../fs/read-protocol-file.js';
import { readPresentation } from '../presenting/slack-presentation.js';

/** Finds the first question and the message link of the batches the Home tab lists. */
export interface HomeDetailSource {
  /** details of the batches listed; `records` are the rows of one view, not every batch */
  detailsFor(records: readonly BatchRecord[]): Promise<Map<string, HomeDetails>>;
}

/**
 * Reads first questions from the q-out files (read-only: the queue's own caches are left
 * alone) and makes each message's link from the workspace's URL, so the Home tab costs no
 * Slack call per batch. Without that URL (Slack did not give one) it asks Slack for the
 * permalinks of the batches listed. Caches both: a permalink per message ts, a question per
 * file version; entries of batches no longer listed are dropped. A failure only leaves that
 * detail out.
 */
export function createHomeDetailSource(deps: {
  client: WebClient;
  log: Logger;
  /** the channel a batch not posted yet is to be posted in, if this relay knows it */
  channelFor?: (record: BatchRecord) => string | undefined;
  /** `auth.test`'s `url` for the workspace, which message links start with */
  workspaceUrl?: string | undefined;
  /** shared mode: the questions of a batch whose run is on another machine; undefined: here */
  sharedQuestions?:
    | ((record: BatchRecord) => Promise<QuestionBatch | undefined> | undefined)
    | undefined;
}): HomeDetailSource {
  const { client, log, workspaceUrl } = deps;
  const permalinks = new Map<string, string>();
  const questions = new Map<string, string | undefined>();

  async function permalinkOf(record: BatchRecord): Promise<string | undefined> {
    const shown = readPresentation(record.presentation);
    if (!shown) return undefined;
    const made = workspaceUrl ? messageLink(workspaceUrl, shown.channel, shown.ts) : undefined;
    if (made) return made;
    const id = `${shown.channel}/${shown.ts}`;
    const cached = permalinks.get(id);
    if (cached) return cached;
    try {
      const res = await client.chat.getPermalink({ channel: shown.channel, message_ts: shown.ts });
      if (res.permalink) permalinks.set(id, res.permalink);
      return res.permalink;
    } catch (err) {
      log.warn({ err, key: record.key, ...shown }, 'could not get a message link for App Home');
      return undefined;
    }
  }

  async function firstQuestionOf(record: BatchRecord): Promise<string | undefined> {
    const id = `${record.key}/${record.fingerprint}`;
    if (questions.has(id)) return questions.get(id);
    const shared = deps.sharedQuestions?.(record);
    if (shared) {
      // its file is on another machine; its relay shared the questions in Redis
      const prompt = (await shared.catch(() => undefined))?.questions[0]?.prompt;
      if (prompt !== undefined) questions.set(id, prompt);
      return prompt;
    }
    const file = questionPath(record.runDir, record.seq);
    let read: Awaited<ReturnType<typeof readProtocolFile>>;
    try {
      // the agent controls this file: a FIFO or a huge file must not stall the Home tab
      read = await readProtocolFile(file);
    } catch {
      return undefined; // unreadable for now: shown without it, read again next time
    }
    if (read.kind === 'missing') return undefined; // gone for now: read again next time
    if (read.kind === 'refused') {
      log.warn(
        { key: record.key, file, reason: read.reason },
        'not reading question file for App Home',
      );
      questions.set(id, undefined);
      return undefined;
    }
    const parsed = parseQuestionFile(read.bytes.toString('utf8'), file);
    const prompt = parsed.ok ? parsed.value.questions[0]?.prompt : undefined;
    questions.set(id, prompt);
    return prompt;
  }

  return {
    async detailsFor(records) {
      const details = new Map<string, HomeDetails>();
      const listedLinks = new Set<string>();
      const listedQuestions = new Set<string>();
      // the rows of one view (at most about a hundred): read side by side
      await Promise.all(
        records.map(async (record) => {
          const shown = readPresentation(record.presentation);
          if (shown) listedLinks.add(`${shown.channel}/${shown.ts}`);
          listedQuestions.add(`${record.key}/${record.fingerprint}`);
          const [link, firstQuestion] = await Promise.all([
            permalinkOf(record),
            firstQuestionOf(record),
          ]);
          const channel = shown?.channel ?? deps.channelFor?.(record);
          details.set(record.key, {
            ...(channel ? { channel } : {}),
            ...(link ? { link } : {}),
            ...(firstQuestion !== undefined ? { firstQuestion } : {}),
          });
        }),
      );
      for (const id of permalinks.keys()) if (!listedLinks.has(id)) permalinks.delete(id);
      for (const id of questions.keys()) if (!listedQuestions.has(id)) questions.delete(id);
      return details;
    },
  };
}
