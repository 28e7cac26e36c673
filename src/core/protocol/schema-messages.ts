import type * as z from 'zod';
import { describeValue } from './json/describe-value.js';
import { formatJsonPath, type ProtocolProblem } from './protocol-error.js';

/** The part of a zod issue our messages need: the value that failed, absent for a missing key. */
type FailedInput = { readonly input?: unknown };

/**
 * A zod error map for one field: `"key" is missing; expected …` when the key is absent,
 * otherwise `expected …, found <the value, quoted>`.
 */
export const expecting =
  (key: string, expected: string) =>
  (issue: FailedInput): string =>
    issue.input === undefined
      ? `"${key}" is missing; expected ${expected}`
      : `expected ${expected}, found ${describeValue(issue.input)}`;

/** A plain JSON object (not an array, not null). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Turns zod's issues into our problems; the messages were already written by our error maps. */
export function problemsFromZod(error: z.ZodError): ProtocolProblem[] {
  return error.issues.map((issue) => ({
    path: formatJsonPath(issue.path),
    message: issue.message,
  }));
}
