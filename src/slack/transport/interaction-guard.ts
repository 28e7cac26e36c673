import type { AnyMiddlewareArgs, Context, Middleware } from '@slack/bolt';
import type { Logger } from 'pino';
import { decodeInteraction, type Interaction } from './interaction-payload.js';

type Ack = (response?: unknown) => Promise<void>;

/** Where the guard leaves the checked interaction for later middleware and listeners. */
const INTERACTION = 'o7Interaction';

/** The interaction the guard checked, for later middleware (the allow list). */
export const interactionOf = (context: Context): Interaction | undefined =>
  context[INTERACTION] as Interaction | undefined;

/**
 * Bolt global middleware, first in line: every interaction with something the relay rendered is
 * decoded through one checked shape (`interaction-payload`). One that does not have it (no
 * member ID, ids or values of the wrong kind or size) is acknowledged, so Slack shows no
 * error, logged with where it is wrong (never its values), and goes no further.
 */
export function createInteractionGuard(log: Logger): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const decoded = decodeInteraction(args.body);
    if (decoded.kind === 'not-ours') {
      await args.next();
      return;
    }
    if (decoded.kind === 'ours') {
      args.context[INTERACTION] = decoded.interaction;
      await args.next();
      return;
    }
    const ack = (args as { ack?: Ack }).ack;
    await ack?.(decoded.type === 'block_suggestion' ? { options: [] } : undefined);
    log.warn(
      { type: decoded.type, problem: decoded.problem },
      'refused an interaction that does not have the shape Slack sends',
    );
  };
}
