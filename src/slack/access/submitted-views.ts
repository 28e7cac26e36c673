import type { Logger } from 'pino';
import { isTryAgain } from '../../errors.js';
import type { RedisConnection } from '../../redis/redis-connection.js';
import { TRY_AGAIN_TEXT } from './try-again-middleware.js';

/**
 * Slack signs a request with its time and refuses nothing older than 5 minutes, so a request
 * replayed word for word passes the signature check for that long, and no longer.
 */
export const SIGNING_WINDOW_MS = 5 * 60_000;

/**
 * One submission of one form: the view's id and hash. A form is acted on once and then
 * closes, so the same id and hash again is a replay; a submission refused with errors under
 * an input is not recorded, so the same form sent again after a fix is acted on.
 */
export interface ViewSubmission {
  id: string;
  hash: string | undefined;
}

/**
 * The form submissions acted on within the signing window: in memory for one relay, in Redis
 * when relays share one (a replay may reach another relay than the original).
 */
export interface SubmittedViews {
  /** Records `submission`; false when it was recorded already (a replay). */
  first(submission: ViewSubmission): Promise<boolean>;
}

const idOf = ({ id, hash }: ViewSubmission) => `${id}:${hash ?? ''}`;

/** One relay's record, each entry dropped once the window has passed. */
export function submittedViewsInMemory(now: () => number = Date.now): SubmittedViews {
  // every entry lives as long as the others, so the first ones are the oldest
  const until = new Map<string, number>();
  return {
    async first(submission) {
      const at = now();
      for (const [key, end] of until) {
        if (end > at) break;
        until.delete(key);
      }
      const key = idOf(submission);
      if (until.has(key)) return false;
      until.set(key, at + SIGNING_WINDOW_MS);
      return true;
    },
  };
}

/**
 * How long recording a submission in Redis may take: it happens before the form is answered,
 * after lookups that may have used 2 of Slack's 3 s (see `LOOKUP_BUDGET_MS`).
 */
const RECORD_DEADLINE_MS = 750;

/** The relays' shared record: one key per submission (`SET NX PX`), gone after the window. */
export function submittedViewsInRedis(
  connection: RedisConnection,
  keyOf: (submission: string) => string,
): SubmittedViews {
  return {
    async first(submission) {
      const set = await connection.call(
        'recording a form submission',
        (client) =>
          client.set(keyOf(idOf(submission)), '1', {
            condition: 'NX',
            expiration: { type: 'PX', value: SIGNING_WINDOW_MS },
          }),
        { deadlineMs: RECORD_DEADLINE_MS },
      );
      return set !== null;
    },
  };
}

/** What {@link acceptOnce} needs from the listener of a form. */
export interface AcceptOnce {
  submitted: SubmittedViews;
  submission: ViewSubmission;
  /** acknowledges the submission, closing the form */
  ack: () => Promise<void>;
  /** answers with an error under the form's input, keeping it open */
  refuse: (text: string) => Promise<void>;
  log: Logger;
}

/**
 * Acknowledges a form submission the listener is about to act on, and says whether to act:
 * not on a replay (acknowledged, changing nothing, logged), and not while shared mode cannot
 * record it (the form stays open, asking to try again).
 */
export async function acceptOnce(input: AcceptOnce): Promise<boolean> {
  const { submission, log } = input;
  let first: boolean;
  try {
    first = await input.submitted.first(submission);
  } catch (error) {
    if (!isTryAgain(error)) throw error;
    log.debug({ view: submission.id, reason: error.code }, 'form submission not recorded');
    await input.refuse(TRY_AGAIN_TEXT);
    return false;
  }
  await input.ack();
  if (!first) log.warn({ view: submission.id }, 'a form submission came again; it changed nothing');
  return first;
}
