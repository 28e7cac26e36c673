import type { App } from '@slack/bolt';
import { TYPES_WITH_OPTIONS } from '../../core/protocol/question.js';
import { CALLBACK_IDS } from '../../core/slack/ids.js';
import { readFollowUpSubmission } from '../../core/slack/render-follow-up-modal.js';
import { registerTextModal, type TextModalDeps } from './text-modal-view.js';

/** Saves the text typed into the follow-up modal as that question's follow-up text. */
export function registerFollowUpView(app: App, deps: TextModalDeps): void {
  registerTextModal(app, deps, {
    callbackId: CALLBACK_IDS.followUp,
    component: 'follow-up',
    read: readFollowUpSubmission,
    fits: (question) => TYPES_WITH_OPTIONS.includes(question.type),
    save: (actions, key, input) => actions.saveFollowUp(key, input),
  });
}
