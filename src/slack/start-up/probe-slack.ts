import { outcomeOf, type WebApiOutcome } from '../transport/observed-fetch.js';

/** The probe's method: it changes nothing, and any valid token may call it. */
const PROBE_METHOD = 'auth.test';

/**
 * A probe of whether Slack's Web API answers: one `auth.test` call, no retries, cut off after
 * `timeoutMs`, whose outcome is told like any other call's (see `observedFetch`). Used while
 * Slack is down, at a steady interval (see `createSlackReachability`).
 */
export function createSlackProbe(opts: {
  apiUrl: string;
  token: string;
  timeoutMs: number;
  fetch?: typeof globalThis.fetch;
}): () => Promise<WebApiOutcome> {
  const fetch = opts.fetch ?? globalThis.fetch;
  return async () => {
    try {
      const response = await fetch(`${opts.apiUrl}${PROBE_METHOD}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${opts.token}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: '',
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      const outcome = await outcomeOf(PROBE_METHOD, response);
      await response.body?.cancel().catch(() => undefined);
      return outcome;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { method: PROBE_METHOD, kind: 'network', message };
    }
  };
}
