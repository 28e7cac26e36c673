/** `T` without the falsy values {@link waitFor} keeps polling past. */
export type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * How long a wait may take before the test fails. Generous on purpose: a condition that holds
 * returns at once, and on a loaded machine (two cores shared with other work) starting a child
 * process through tsx alone can take 20 s; a test that would pass a moment later must not fail.
 */
export const WAIT_MS = 60_000;

/**
 * Polls `check` until it gives a truthy value and resolves with it. A `check` that throws counts
 * as "not yet"; if time runs out, the error says what was awaited and quotes the last throw.
 * `what` may be a function, to say how things stood when the wait gave up.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  what: string | (() => string),
  timeoutMs = WAIT_MS,
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as Truthy<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const why = lastError instanceof Error ? `; last error: ${lastError.message}` : '';
      const awaited = typeof what === 'string' ? what : what();
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${awaited}${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
