/** `T` without the falsy values {@link waitFor} keeps polling past. */
export type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/** Options for {@link waitFor}. */
export interface WaitForOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** what is being waited for, for the timeout message */
  description?: string;
}

/**
 * Polls `predicate` until it returns a truthy value and resolves with it. A predicate that
 * throws counts as "not yet"; its last error is quoted if time runs out.
 */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  options: WaitForOptions = {},
): Promise<Truthy<T>> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const intervalMs = options.intervalMs ?? 20;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await predicate();
      if (value) return value as Truthy<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const what = options.description ? ` waiting for ${options.description}` : '';
      const why = lastError instanceof Error ? `; last error: ${lastError.message}` : '';
      throw new Error(`waitFor timed out after ${timeoutMs} ms${what}${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
