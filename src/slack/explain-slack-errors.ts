import { slackErrorKind } from '../core/slack/slack-error-kinds.js';
import { type Presenter, PresentRefused } from '../queue/presenter.js';
import { slackErrorCode } from './slack-error-hints.js';

/**
 * Lets a Slack refusal say what to do about it. One that no retry fixes (the table in
 * `slack-error-kinds`) becomes a `PresentRefused`, so the queue stops retrying it and people
 * are told; any other failure keeps its code and fix in the message the queue logs as it
 * retries.
 */
export function withSlackErrorHints(inner: Presenter): Presenter {
  return {
    async sync(record, ctx, save) {
      try {
        return await inner.sync(record, ctx, save);
      } catch (err) {
        const code = slackErrorCode(err);
        if (!code) throw err;
        const kind = slackErrorKind(code);
        if (kind.scope !== 'transient') throw new PresentRefused(code, kind.fix, { cause: err });
        throw new Error(`Slack refused to show batch ${record.seq}: ${code}; ${kind.fix}`, {
          cause: err,
        });
      }
    },
    tellRefused: (record, refusal, questionFile) =>
      inner.tellRefused(record, refusal, questionFile),
  };
}
