/**
 * How far a request's `X-Slack-Request-Timestamp` may be from this machine's clock, either way.
 * Slack's own replay window: a captured request is useless five minutes later, and a request
 * stamped in the future could otherwise be replayed until that future has passed.
 */
export const REQUEST_TIMESTAMP_WINDOW_SEC = 5 * 60;

/**
 * Why a request's timestamp (the header's text, in whole seconds) is refused at `nowMs`, or
 * undefined when it is within ±5 minutes. The header is part of what the signature covers.
 */
export function requestTimestampProblem(
  header: string | undefined,
  nowMs: number,
): string | undefined {
  if (header === undefined || header === '') return 'X-Slack-Request-Timestamp is missing';
  if (!/^\d{1,15}$/.test(header)) {
    return 'X-Slack-Request-Timestamp is not a whole number of seconds';
  }
  const offsetSec = Number(header) - Math.floor(nowMs / 1000);
  if (Math.abs(offsetSec) <= REQUEST_TIMESTAMP_WINDOW_SEC) return undefined;
  const direction = offsetSec > 0 ? 'in the future' : 'in the past';
  return `X-Slack-Request-Timestamp is ${Math.abs(offsetSec)} s ${direction}; requests more than ${REQUEST_TIMESTAMP_WINDOW_SEC} s from this machine's clock are refused as replays (if every request is refused, check the clock's time sync)`;
}
