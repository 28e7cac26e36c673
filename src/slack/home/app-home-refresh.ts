import type { Logger } from 'pino';
import type { Presenter } from '../../queue/presenter.js';
import type { AppHome } from './app-home.js';

/**
 * Wraps a presenter so that every time a batch's visible state is shown, the App Home tabs are
 * refreshed too (debounced by `home`). The queue is unchanged and unaware: the inner
 * presenter's result and errors pass through as they are, and nothing the Home refresh does
 * can fail a sync.
 */
export function withAppHomeRefresh(
  inner: Presenter,
  home: Pick<AppHome, 'refreshSoon'>,
  log: Logger,
): Presenter {
  return {
    async sync(record, ctx, save) {
      try {
        return await inner.sync(record, ctx, save);
      } finally {
        // The record changed even when showing it failed (e.g. answered, message not updated).
        try {
          home.refreshSoon();
        } catch (err) {
          log.warn({ err, key: record.key }, 'could not schedule an App Home refresh');
        }
      }
    },
    tellRefused: (record, refusal, questionFile) =>
      inner.tellRefused(record, refusal, questionFile),
  };
}
