import * as z from 'zod';
import { isRecord } from '../schema-messages.js';

/**
 * Records keyed by question ids, which come from files. On a plain object some ids are not
 * data: assigning `__proto__` replaces the prototype (the answer is silently lost), and
 * reading `constructor` or `toString` where no answer was given finds a function. These
 * records have no prototype, so every id is an ordinary key.
 */
export function idRecord<T>(entries: Iterable<readonly [string, T]> = []): Record<string, T> {
  const record = Object.create(null) as Record<string, T>;
  for (const [id, value] of entries) record[id] = value;
  return record;
}

/** A copy of `record` with `id` set to `value`, or without `id` when `value` is undefined. */
export function withIdValue<T>(
  record: Readonly<Record<string, T>> | undefined,
  id: string,
  value: T | undefined,
): Record<string, T> {
  const next = idRecord(Object.entries(record ?? {}));
  if (value === undefined) delete next[id];
  else next[id] = value;
  return next;
}

/** The value stored for `id`; never one a plain object inherits. */
export const valueFor = <T>(record: Readonly<Record<string, T>> | undefined, id: string) =>
  record !== undefined && Object.hasOwn(record, id) ? record[id] : undefined;

/**
 * A zod schema for an object keyed by question ids, read into an `idRecord`. `z.record`
 * copies into a plain object, where a `__proto__` key (which `JSON.parse` keeps as data)
 * would be dropped and would replace the copy's prototype.
 */
export function idRecordSchema<T>(value: z.ZodType<T>, error?: (input: unknown) => string) {
  return z.unknown().transform((input, ctx): Record<string, T> => {
    if (!isRecord(input)) {
      ctx.addIssue({
        code: 'custom',
        input,
        message: error?.(input) ?? 'expected an object keyed by id',
      });
      return z.NEVER;
    }
    const record = idRecord<T>();
    for (const [id, item] of Object.entries(input)) {
      const parsed = value.safeParse(item);
      if (parsed.success) record[id] = parsed.data;
      for (const issue of parsed.error?.issues ?? []) {
        ctx.addIssue({ ...issue, code: 'custom', path: [id, ...issue.path] });
      }
    }
    return record;
  });
}
