import type { App } from '@slack/bolt';
import type { Logger } from 'pino';
import { FREE_WRITE_CALLBACK_ID, readFreeWriteSubmission } from '../../core/slack/render-modals.js';
import type { BatchQueue } from '../../queue/batch-queue.js';
import { registerTextModal } from './text-modal-view.js';

/** Saves the text typed into the free-write modal as that question's draft. */
export function registerFreeWriteView(app: App, deps: { queue: BatchQueue; log: Logger }): void {
  registerTextModal(app, deps, {
    callbackId: FREE_WRITE_CALLBACK_ID,
    component: 'free-write',
    read: readFreeWriteSubmission,
    save: (queue, key, { revision, questionId, text }) =>
      queue.saveDraft(key, { revision, questionId, answer: text }),
  });
}
