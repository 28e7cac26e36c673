import type { App } from '@slack/bolt';
import type { Logger } from 'pino';
import {
  FOLLOW_UP_CALLBACK_ID,
  readFollowUpSubmission,
} from '../../core/slack/render-follow-up-modal.js';
import type { BatchQueue } from '../../queue/batch-queue.js';
import { registerTextModal } from './text-modal-view.js';

/** Saves the text typed into the follow-up modal as that question's follow-up text. */
export function registerFollowUpView(app: App, deps: { queue: BatchQueue; log: Logger }): void {
  registerTextModal(app, deps, {
    callbackId: FOLLOW_UP_CALLBACK_ID,
    component: 'follow-up',
    read: readFollowUpSubmission,
    save: (queue, key, input) => queue.saveFollowUp(key, input),
  });
}
