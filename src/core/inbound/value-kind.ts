/**
 * What kind of JSON value this is (`null`, `an array`, `a string`, …), for refusal messages.
 * Never the value itself: a request can carry tokens and people's text, which logs must not.
 */
export function valueKind(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'boolean') return String(value);
  return `a ${typeof value}`;
}
