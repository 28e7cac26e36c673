import { formatJsonPath, type ProtocolProblem } from '../protocol-error.js';

/**
 * The one field name a JavaScript object cannot hold as data: assigning it replaces the
 * object's prototype instead. A copy of a question made with it (zod's, the relay's) would
 * drop the field and could take on fields the file never gave that question.
 */
const RESERVED_KEY = '__proto__';

const MESSAGE = `expected no field named "${RESERVED_KEY}": JavaScript gives that name a special meaning, so the relay cannot keep it; rename or remove the field`;

// One is enough to refuse the file; a few show whether it is a pattern.
const MOST_REPORTED = 10;

/** A value met in the walk, with how it was reached (its path is built only when needed). */
interface Step {
  value: unknown;
  key?: string | number;
  from?: Step;
}

function pathOf(step: Step): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Step | undefined = step; at?.key !== undefined; at = at.from) path.push(at.key);
  return path.reverse();
}

/**
 * Every `__proto__` field in parsed JSON (which `JSON.parse` keeps as an own property), by
 * JSON path. Walks with an explicit stack; the depth was already limited before parsing.
 */
export function findReservedKeys(value: unknown): ProtocolProblem[] {
  const problems: ProtocolProblem[] = [];
  const pending: Step[] = [{ value }];
  while (pending.length > 0 && problems.length < MOST_REPORTED) {
    const step = pending.pop() as Step;
    const current = step.value;
    if (step.key === RESERVED_KEY) {
      problems.push({ path: formatJsonPath(pathOf(step)), message: MESSAGE });
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) {
        const item = current[index];
        if (typeof item === 'object' && item !== null) {
          pending.push({ value: item, key: index, from: step });
        }
      }
    } else if (typeof current === 'object' && current !== null) {
      const keys = Object.keys(current);
      for (let index = keys.length - 1; index >= 0; index -= 1) {
        const key = keys[index] as string;
        const item = (current as Record<string, unknown>)[key];
        if (key === RESERVED_KEY || (typeof item === 'object' && item !== null)) {
          pending.push({ value: item, key, from: step });
        }
      }
    }
  }
  return problems;
}
