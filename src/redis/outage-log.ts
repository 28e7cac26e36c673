/** Whether Redis is reachable, as the relay last saw it. */
export type LinkState = { up: true } | { up: false; since: number; reason: string };

/** What to log about the link: one line when it goes, one when it is back, nothing else. */
export type LinkNews =
  | { kind: 'lost'; reason: string }
  | { kind: 'back'; downMs: number; reason: string }
  | undefined;

/**
 * The next link state after a connection error (`reason`) or a ready connection, and what, if
 * anything, is news. Errors during an outage (every failed reconnect attempt raises one) are
 * not: an outage is told once, and so is its end.
 */
export function nextLinkState(
  state: LinkState,
  event: { kind: 'error'; reason: string } | { kind: 'ready' },
  now: number,
): { state: LinkState; news: LinkNews } {
  if (event.kind === 'error') {
    if (!state.up) return { state, news: undefined };
    return {
      state: { up: false, since: now, reason: event.reason },
      news: { kind: 'lost', reason: event.reason },
    };
  }
  if (state.up) return { state, news: undefined };
  return {
    state: { up: true },
    news: { kind: 'back', downMs: now - state.since, reason: state.reason },
  };
}
