/** A value or the problems that prevented it; errors as data, never thrown across the core. */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

/** Wraps a success. */
export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });

/** Wraps a failure. */
export const err = <E>(error: E): { ok: false; error: E } => ({ ok: false, error });
