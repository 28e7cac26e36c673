import type * as z from 'zod';
import { quote } from '../json/describe-value.js';
import { isRecord } from '../schema-messages.js';

/**
 * A zod refinement for `questions` or `answers`: each `id` may appear once. A repeat is
 * reported at its own path and names the index that used the id first.
 */
export const checkUniqueIds =
  (list: 'questions' | 'answers') =>
  (items: unknown[], ctx: z.RefinementCtx): void => {
    const firstIndex = new Map<string, number>();
    items.forEach((item, index) => {
      if (!isRecord(item) || typeof item.id !== 'string') return;
      const earlier = firstIndex.get(item.id);
      if (earlier === undefined) {
        firstIndex.set(item.id, index);
        return;
      }
      ctx.addIssue({
        code: 'custom',
        path: [index, 'id'],
        input: item.id,
        message: `expected a unique id, found ${quote(item.id)} again (same as ${list}[${earlier}].id)`,
      });
    });
  };
