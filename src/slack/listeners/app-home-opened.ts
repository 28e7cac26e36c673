import type { App } from '@slack/bolt';
import type { AppHome } from '../home/app-home.js';

/** Publishes the Home tab when someone opens it (the Messages tab needs nothing). */
export function registerAppHomeOpened(app: App, deps: { home: AppHome }): void {
  app.event('app_home_opened', async ({ event }) => {
    if (event.tab !== 'home') return;
    await deps.home.opened(event.user);
  });
}
