import { slackErrorKind } from '../core/slack/slack-error-kinds.js';
import { type Presenter, PresentRefused } from '../queue/presenter.js';

/** The error code of a Slack Web API failure (`invalid_auth`, `not_in_channel`, …), if it is one. */
export function slackErrorCode(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

/** A Slack error's code, or else its message: what to show a person. */
export function describeSlackError(error: unknown): string {
  return slackErrorCode(error) ?? (error instanceof Error ? error.message : String(error));
}

/** What to do about a Slack error (a code, or a network failure's message), in one sentence. */
export function fixFor(error: string): string {
  const code = /^[a-z_]+$/.test(error) ? slackErrorKind(error) : undefined;
  if (code?.known) return code.fix;
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|fetch failed/.test(error)) {
    return 'Slack cannot be reached: check the network, proxies, and SLACK_API_URL';
  }
  return 'see the README troubleshooting section';
}

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
