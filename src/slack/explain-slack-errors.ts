import type { Presenter } from '../queue/presenter.js';
import { fixFor, slackErrorCode } from './slack-error-hints.js';

/**
 * Lets a Slack refusal say what to do about it: the queue logs the error it gets and retries,
 * so the log line should carry the code (`not_in_channel`) and the fix, not just "failed".
 */
export function withSlackErrorHints(inner: Presenter): Presenter {
  return {
    async sync(record, ctx, save) {
      try {
        return await inner.sync(record, ctx, save);
      } catch (err) {
        const code = slackErrorCode(err);
        if (!code) throw err;
        throw new Error(`Slack refused to show batch ${record.seq}: ${code}; ${fixFor(code)}`, {
          cause: err,
        });
      }
    },
  };
}
