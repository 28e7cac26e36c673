import { type SlackErrorRemedy, slackErrorKind } from '../../core/slack/slack-error-kinds.js';
import { type Presenter, PresentRefused, PresentUnavailable } from '../../queue/presenter.js';

/** The error code of a Slack Web API failure (`invalid_auth`, `not_in_channel`, …), if it is one. */
export function slackErrorCode(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

/** What the error table says to try first about a Slack error, if it is a refusal at all. */
export function remedyFor(error: unknown): SlackErrorRemedy | undefined {
  const code = slackErrorCode(error);
  return code === undefined ? undefined : slackErrorKind(code).remedy;
}

/**
 * `@slack/web-api`'s codes for a call Slack did not answer (a network failure), answered
 * with an HTTP error, or rate-limited past its retries: each passes by itself.
 */
const UNANSWERED_CALL_CODES: ReadonlySet<unknown> = new Set([
  'slack_webapi_request_error',
  'slack_webapi_http_error',
  'slack_webapi_rate_limited_error',
]);

/** Whether a Web API call failed without Slack refusing it: it may go through later. */
export const isUnansweredCall = (error: unknown): boolean =>
  UNANSWERED_CALL_CODES.has((error as { code?: unknown } | undefined)?.code);

/**
 * A failure of a call to Slack that passes by itself (no answer, an HTTP error, a rate limit
 * past the client's retries, or a transient code) as a `PresentUnavailable` saying Slack did
 * not take `subject`; anything else as it is.
 */
export function unavailableOr(err: unknown, subject: string): unknown {
  const code = slackErrorCode(err);
  if (code === undefined) {
    if (!isUnansweredCall(err)) return err;
    const reason = err instanceof Error ? err.message : String(err);
    return new PresentUnavailable(`Slack did not take ${subject}: ${reason}`, { cause: err });
  }
  const kind = slackErrorKind(code);
  if (kind.scope !== 'transient') return err;
  return new PresentUnavailable(`Slack did not take ${subject}: ${code}; ${kind.fix}`, {
    cause: err,
  });
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
  return 'see docs/troubleshooting.md';
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
        if (code && slackErrorKind(code).scope !== 'transient') {
          throw new PresentRefused(code, slackErrorKind(code).fix, { cause: err });
        }
        throw unavailableOr(err, `batch ${record.seq}`);
      }
    },
    tellRefused: (record, refusal, questionFile) =>
      inner.tellRefused(record, refusal, questionFile),
  };
}
