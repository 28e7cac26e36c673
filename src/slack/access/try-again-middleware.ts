import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Logger } from 'pino';
import { isTryAgain } from '../../errors.js';
import { tellUser } from '../presenting/tell-user.js';

/** What a person is told when their action could not be recorded for now. */
export const TRY_AGAIN_TEXT =
  'The relay could not record that just now (its shared store is busy or unreachable). Nothing was changed: please try again in a moment.';

type Payload = {
  user?: { id?: string };
  channel?: { id?: string };
  container?: { channel_id?: string };
};

/**
 * Shared mode: an action the store could not take for now (Redis away, or other relays kept
 * changing the batch first) is answered with a private "try again in a moment", where the
 * person acted (a form's submitter, in their messages with the app). The outage itself is
 * logged once by the connection; here one debug line per action.
 */
export function createTryAgainMiddleware(log: Logger): Middleware<AnyMiddlewareArgs> {
  return async ({ next, body: anyBody, client }) => {
    const body = anyBody as Payload;
    try {
      await next();
    } catch (error) {
      const cause = firstTryAgain(error);
      if (!cause) throw error;
      const user = body.user?.id;
      log.debug({ user, reason: cause.code }, 'action not recorded; person asked to try again');
      if (!user) return;
      const channel = body.channel?.id ?? body.container?.channel_id;
      if (channel) await tellUser(client, log, { user, channel }, TRY_AGAIN_TEXT);
      else
        await client.chat
          .postMessage({ channel: user, text: TRY_AGAIN_TEXT })
          .catch((err: unknown) => log.warn({ err, user }, 'could not ask to try again'));
    }
  };
}

/** The try-again error in `error`, or among several listeners' errors. */
function firstTryAgain(error: unknown) {
  if (isTryAgain(error)) return error;
  const originals = (error as { originals?: unknown[] } | undefined)?.originals;
  return originals?.find(isTryAgain);
}
