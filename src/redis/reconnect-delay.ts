/** The first wait before connecting again after Redis went away. */
export const RECONNECT_FIRST_MS = 100;
/** The longest wait between two attempts: a Redis back after a restart is found within this. */
export const RECONNECT_MAX_MS = 2000;

/**
 * How long to wait before reconnect attempt `retries` (0 first): doubling from
 * `RECONNECT_FIRST_MS` up to `RECONNECT_MAX_MS`, each spread over its upper half by `random`
 * (0 to 1) so that many relays do not all knock at once when Redis comes back.
 */
export function reconnectDelay(retries: number, random: number): number {
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** Math.min(retries, 20));
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}
