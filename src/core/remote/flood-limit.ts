/** How many requests a token may make at once, and how fast the allowance comes back. */
export interface FloodPolicy {
  /** requests allowed in a burst */
  burst: number;
  /** requests added back per second */
  perSecond: number;
}

/** A token bucket: its requests left and when it was last filled. */
export interface Bucket {
  left: number;
  at: number;
}

/** What one more request gets: allowed, or refused with how long to wait. */
export type FloodVerdict =
  | { allowed: true; bucket: Bucket }
  | { allowed: false; bucket: Bucket; retryAfterSec: number };

/**
 * One request against `bucket` at `nowMs` (a token bucket: `burst` at once, then
 * `perSecond`). A fresh bucket starts full. Refusing costs nothing, so a flood stays refused
 * only as long as it keeps coming faster than the policy.
 */
export function takeRequest(
  bucket: Bucket | undefined,
  nowMs: number,
  policy: FloodPolicy,
): FloodVerdict {
  const since = bucket ? Math.max(0, nowMs - bucket.at) / 1000 : 0;
  const left = bucket
    ? Math.min(policy.burst, bucket.left + since * policy.perSecond)
    : policy.burst;
  if (left >= 1) return { allowed: true, bucket: { left: left - 1, at: nowMs } };
  return {
    allowed: false,
    bucket: { left, at: nowMs },
    retryAfterSec: Math.max(1, Math.ceil((1 - left) / policy.perSecond)),
  };
}
