import type { App } from '@slack/bolt';
import { FREE_WRITE_CALLBACK_ID, readFreeWriteSubmission } from '../../core/slack/render-modals.js';
import { registerTextModal, type TextModalDeps } from './text-modal-view.js';

/** Saves the text typed into the free-write modal as that question's draft. */
export function registerFreeWriteView(app: App, deps: TextModalDeps): void {
  registerTextModal(app, deps, {
    callbackId: FREE_WRITE_CALLBACK_ID,
    component: 'free-write',
    read: readFreeWriteSubmission,
    fits: (question) => question.type === 'free-write',
    save: (actions, key, { revision, questionId, text }) =>
      actions.saveDraft(key, { revision, questionId, answer: text }),
  });
}
