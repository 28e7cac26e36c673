import type { App, ViewSubmitAction } from '@slack/bolt';
import type { Logger } from 'pino';
import { parseModalMetadata } from '../../core/slack/modal-metadata.js';
import {
  FOLLOW_UP_CALLBACK_ID,
  readFollowUpSubmission,
} from '../../core/slack/render-follow-up-modal.js';
import type { BatchQueue } from '../../queue/batch-queue.js';
import { explainRefusal } from '../tell-user.js';

/** Saves the text typed into the follow-up modal as that question's follow-up text. */
export function registerFollowUpView(app: App, deps: { queue: BatchQueue; log: Logger }): void {
  const log = deps.log.child({ component: 'follow-up' });
  app.view<ViewSubmitAction>(FOLLOW_UP_CALLBACK_ID, async ({ ack, body, view }) => {
    // Envelope question ids (q1…q4) always fit, so the metadata names the question directly.
    const meta = parseModalMetadata(view.private_metadata, []);
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
    const outcome = await deps.queue.saveFollowUp(meta.key, {
      revision: meta.revision,
      questionId: meta.questionId,
      text: readFollowUpSubmission(view.state.values),
    });
    log.debug({ key: meta.key, user: body.user.id, outcome: outcome.kind }, 'follow-up text saved');
  });
}
