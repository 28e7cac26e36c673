import { describeValue, quote } from '../json/describe-value.js';
import { formatJsonPath, type ProtocolProblem } from '../protocol-error.js';
import { isRecord } from '../schema-messages.js';

/**
 * Where two strings that would quote the same in a message (both shortened) part, as
 * `; they differ from character 61`; `''` when their quotes already tell them apart.
 */
export function whereStringsPart(expected: string, found: string): string {
  if (describeValue(expected) !== describeValue(found)) return '';
  const a = Array.from(expected);
  const b = Array.from(found);
  let at = 0;
  while (at < a.length && a[at] === b[at]) at += 1;
  return `; they differ from character ${at + 1}`;
}

/**
 * Every place where `found` is not a verbatim copy of `expected` (JSON values), by JSON path
 * under `path`, worded for people: `source` names the file `expected` comes from. Objects are
 * compared key by key, in any key order; arrays item by item, or whole when their lengths
 * differ (items after a missing one would all differ). The depth was limited at parsing.
 */
export function echoDifferences(
  expected: unknown,
  found: unknown,
  path: readonly (string | number)[],
  source: string,
): ProtocolProblem[] {
  const at = formatJsonPath(path);
  if (Array.isArray(expected) && Array.isArray(found)) {
    if (expected.length !== found.length) {
      const items = (count: number) => `${count} ${count === 1 ? 'item' : 'items'}`;
      const message = `expected ${describeValue(expected)} as in ${source} (${items(expected.length)}), found ${describeValue(found)} (${items(found.length)})`;
      return [{ path: at, message }];
    }
    return expected.flatMap((item, index) =>
      echoDifferences(item, found[index], [...path, index], source),
    );
  }
  if (isRecord(expected) && isRecord(found)) {
    const problems: ProtocolProblem[] = [];
    for (const [key, value] of Object.entries(expected)) {
      if (Object.hasOwn(found, key)) {
        problems.push(...echoDifferences(value, found[key], [...path, key], source));
      } else {
        const message = `${quote(key)} is missing; expected ${describeValue(value)} as in ${source}`;
        problems.push({ path: formatJsonPath([...path, key]), message });
      }
    }
    for (const [key, value] of Object.entries(found)) {
      if (Object.hasOwn(expected, key)) continue;
      const message = `expected no ${quote(key)} field, as in ${source}, found ${describeValue(value)}`;
      problems.push({ path: formatJsonPath([...path, key]), message });
    }
    return problems;
  }
  if (expected === found) return [];
  const part =
    typeof expected === 'string' && typeof found === 'string'
      ? whereStringsPart(expected, found)
      : '';
  return [
    {
      path: at,
      message: `expected ${describeValue(expected)} as in ${source}, found ${describeValue(found)}${part}`,
    },
  ];
}
