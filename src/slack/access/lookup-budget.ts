import type { AnyMiddlewareArgs, Context, Middleware } from '@slack/bolt';

/**
 * Slack gives an interaction 3 s for its answer. Whatever the relay asks Slack before
 * answering (a user group refresh, `users.info`) shares this much of it, counted from when
 * the interaction arrived; the rest is for the relay's own work and the way back.
 */
export const LOOKUP_BUDGET_MS = 2000;

/** Where the arrival time is kept in Bolt's per-interaction context. */
const ARRIVED_AT = 'o7ArrivedAt';

/** Bolt global middleware, registered before any other: notes when the interaction arrived. */
export function noteArrival(now: () => number = Date.now): Middleware<AnyMiddlewareArgs> {
  return async ({ context, next }) => {
    context[ARRIVED_AT] = now();
    await next();
  };
}

/** Milliseconds of the lookup budget this interaction has left (the whole budget if unknown). */
export function lookupTimeLeft(context: Context, now: () => number = Date.now): number {
  const arrived = context[ARRIVED_AT];
  if (typeof arrived !== 'number') return LOOKUP_BUDGET_MS;
  return Math.max(0, arrived + LOOKUP_BUDGET_MS - now());
}

/** `work`'s result, or `undefined` once `ms` have passed without one. */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
