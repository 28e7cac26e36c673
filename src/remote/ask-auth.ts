import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { type Bucket, type FloodPolicy, takeRequest } from '../core/remote/flood-limit.js';
import type { AskTokens } from './ask-tokens-file.js';

/** Each token's allowance: a burst of 30 requests, then one a second (a long poll is one per 25 s). */
export const ASK_FLOOD_POLICY: FloodPolicy = { burst: 30, perSecond: 1 };

/** A request the ask API answers with `status` and `message` and does nothing else for. */
export class AskRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** for a flood: when the same request will be let through */
    readonly retryAfterSec?: number,
  ) {
    super(message);
  }
}

/**
 * Who sent a request: the holder of its bearer token, within that holder's allowance. Throws
 * an {@link AskRefusal} for no token, a wrong or revoked one, a broken tokens file (said in
 * the log once per state of the file) or a flood; the token itself is never logged or said.
 */
export function createAskAuth(tokens: AskTokens, log: Logger, now: () => number) {
  const buckets = new Map<string, Bucket>();
  let brokenSaid: string | undefined;
  return async (req: IncomingMessage): Promise<string> => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!match?.[1])
      throw new AskRefusal(
        401,
        'No bearer token: send "Authorization: Bearer <token>" (RELAY_TOKEN)',
      );
    const holder = await tokens.identify(match[1]);
    if (holder.kind === 'broken') {
      if (brokenSaid !== holder.problem)
        log.error(
          { problem: holder.problem },
          'the ask tokens file cannot be used; every ask is refused until it is fixed',
        );
      brokenSaid = holder.problem;
      throw new AskRefusal(
        503,
        "The relay's tokens file is broken; its operator is told in the relay's log",
      );
    }
    brokenSaid = undefined;
    if (holder.kind === 'unknown')
      throw new AskRefusal(
        401,
        "The token is not one this relay knows; check RELAY_TOKEN against the relay's RELAY_ASK_TOKENS",
      );
    if (holder.kind === 'revoked')
      throw new AskRefusal(
        403,
        `The token of ${holder.name} was revoked; ask the relay's operator for a new one`,
      );
    // holders are the file's lines: this map is as small as the file
    const verdict = takeRequest(buckets.get(holder.name), now(), ASK_FLOOD_POLICY);
    buckets.set(holder.name, verdict.bucket);
    if (!verdict.allowed)
      throw new AskRefusal(
        429,
        `Too many requests from ${holder.name}: at most ${ASK_FLOOD_POLICY.burst} at once and ${ASK_FLOOD_POLICY.perSecond} a second after that; try again in ${verdict.retryAfterSec} s`,
        verdict.retryAfterSec,
      );
    return holder.name;
  };
}
