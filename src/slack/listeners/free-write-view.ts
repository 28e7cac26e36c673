import type { App } from '@slack/bolt';
import { CALLBACK_IDS } from '../../core/slack/ids.js';
import { readFreeWriteSubmission } from '../../core/slack/render-modals.js';
import { registerTextModal, type TextModalDeps } from './text-modal-view.js';

/** Saves the text typed into the free-write modal as that question's draft. */
export function registerFreeWriteView(app: App, deps: TextModalDeps): void {
  registerTextModal(app, deps, {
    callbackId: CALLBACK_IDS.freeWrite,
    component: 'free-write',
    read: readFreeWriteSubmission,
    fits: (question) => question.type === 'free-write',
    save: (actions, key, { revision, questionId, text }) =>
      actions.saveDraft(key, { revision, questionId, answer: text }),
  });
}
