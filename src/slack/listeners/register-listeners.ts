import type { App } from '@slack/bolt';
import type { Logger } from 'pino';
import type { BatchActions } from '../../queue/actions/batch-actions.js';
import type { AllowList } from '../access/allow-list.js';
import type { GroupMemberSource } from '../access/allow-list-groups.js';
import { createAllowListMiddleware } from '../access/allow-list-middleware.js';
import { noteArrival } from '../access/lookup-budget.js';
import type { ModalSeal } from '../access/modal-seal.js';
import type { SubmittedViews } from '../access/submitted-views.js';
import { createTryAgainMiddleware } from '../access/try-again-middleware.js';
import { registerApproveAllView } from '../digest/approve-all-view.js';
import { registerDigestActions } from '../digest/digest-actions.js';
import type { DigestKeeper } from '../digest/digest-keeper.js';
import type { AppHome } from '../home/app-home.js';
import type { FullPreviews } from '../presenting/full-preview.js';
import { createInteractionGuard } from '../transport/interaction-guard.js';
import { registerBlockActions } from './block-actions.js';
import { registerHandOffView } from './hand-off-view.js';
import { registerOptionSuggestions } from './option-suggestions.js';
import { registerTextModal, TEXT_FORMS } from './text-modal-view.js';

/** What Slack's listeners need from the rest of the relay. */
export interface ListenerDeps {
  actions: BatchActions;
  log: Logger;
  seal: ModalSeal;
  fullPreviews: FullPreviews;
  /** the clock deadlines are set and checked against, for a control that sets one */
  now: () => Date;
  home: AppHome;
  /** `RELAY_ALLOWED_USERS`, and the members of its groups */
  allowList: AllowList | undefined;
  groups: GroupMemberSource;
  /** the form submissions acted on: a replay of one changes nothing */
  submittedViews: SubmittedViews;
  /** the channels' digests of quick batches, when kept */
  digest?: DigestKeeper;
}

/**
 * Everything the relay answers in Slack, in one place: first the checks every interaction goes
 * through (arrival time, the payload's shape, "try again" when the shared store could not
 * record it, the allow list), then one listener for every click on a batch message (one table
 * of controls, `CONTROLS`), one per form (the text forms of `TEXT_FORMS`, the hand-off form),
 * the type-ahead searches and the Home tab.
 */
export function registerListeners(app: App, deps: ListenerDeps): void {
  const { log, allowList, groups } = deps;
  app.use(noteArrival());
  app.use(createInteractionGuard(log.child({ component: 'slack-guard' })));
  app.use(createTryAgainMiddleware(log.child({ component: 'slack' })));
  if (allowList) app.use(createAllowListMiddleware({ allowList, groups, log }));
  registerBlockActions(app, deps);
  for (const form of TEXT_FORMS) registerTextModal(app, deps, form);
  registerOptionSuggestions(app, deps);
  registerHandOffView(app, deps);
  if (deps.digest) {
    registerDigestActions(app, { ...deps, digest: deps.digest });
    registerApproveAllView(app, deps);
  }
  registerAppHomeOpened(app, deps);
  app.error(async (err) => {
    log.error({ err }, 'unhandled error in a Slack listener');
  });
}

/** Publishes the Home tab when someone opens it (the Messages tab needs nothing). */
function registerAppHomeOpened(app: App, deps: { home: AppHome }): void {
  app.event('app_home_opened', async ({ event }) => {
    if (event.tab !== 'home') return;
    await deps.home.opened(event.user);
  });
}
