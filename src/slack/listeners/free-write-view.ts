import type { App, ViewSubmitAction } from '@slack/bolt';
import type { Logger } from 'pino';
import { FREE_WRITE_CALLBACK_ID, readFreeWriteSubmission } from '../../core/slack/render-modals.js';
import type { BatchQueue } from '../../queue/batch-queue.js';
import { explainRefusal } from '../tell-user.js';

/** Saves the text typed into the free-write modal as that question's draft. */
export function registerFreeWriteView(app: App, deps: { queue: BatchQueue; log: Logger }): void {
  const log = deps.log.child({ component: 'free-write' });
  app.view<ViewSubmitAction>(FREE_WRITE_CALLBACK_ID, async ({ ack, body, view }) => {
    const meta = parseMeta(view.private_metadata);
    const found = meta ? await deps.queue.lookup(meta.key) : undefined;
    const refusal =
      !meta || !found
        ? explainRefusal({ kind: 'unknown' })
        : found.record.status !== 'open'
          ? explainRefusal({ kind: 'closed', status: found.record.status })
          : !found.record.fingerprint.startsWith(meta.revision)
            ? explainRefusal({ kind: 'out-of-date' })
            : undefined;
    if (refusal || !meta) {
      const blockId = Object.keys(view.state.values)[0] ?? 'answer';
      await ack({ response_action: 'errors', errors: { [blockId]: refusal ?? 'Unknown form.' } });
      return;
    }
    await ack();
    const text = readFreeWriteSubmission(view.state.values);
    const outcome = await deps.queue.saveDraft(meta.key, {
      revision: meta.revision,
      questionId: meta.questionId,
      answer: text,
    });
    log.debug({ key: meta.key, user: body.user.id, outcome: outcome.kind }, 'free-write saved');
  });
}

function parseMeta(
  text: string,
): { key: string; revision: string; questionId: string } | undefined {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const { key, revision, questionId } = value;
    if (typeof key === 'string' && typeof revision === 'string' && typeof questionId === 'string') {
      return { key, revision, questionId };
    }
  } catch {
    // not ours
  }
  return undefined;
}
