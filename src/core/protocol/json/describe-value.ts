/** How many characters of a found value an error message quotes before cutting it short. */
export const QUOTE_LIMIT = 60;

/** Cuts `text` to at most `limit` characters (code points, so emoji survive), marking the cut. */
export function shorten(text: string, limit = QUOTE_LIMIT): string {
  const chars = Array.from(text);
  return chars.length <= limit ? text : `${chars.slice(0, limit - 1).join('')}…`;
}

// Characters that show nothing or reorder what follows (zero-width, right-to-left overrides):
// a message quoting them would hide what is really in the file.
const INVISIBLE = /[\p{Cf}\p{Zl}\p{Zp}]/gu;

const escapeInvisible = (text: string): string =>
  text.replace(
    INVISIBLE,
    (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );

/**
 * A string as JSON would spell it, shortened, invisible characters written as `\u200b`:
 * `"JSON"`, `""`, `"a very long…"`.
 */
export function quote(text: string): string {
  return escapeInvisible(JSON.stringify(shorten(text, QUOTE_LIMIT - 2)));
}

/**
 * Names a value found in a file for an error message, quoting it so the reader can find it:
 * `"1"`, `1.5`, `null`, `an array [1,2]`, `an empty object`, `nothing` (absent).
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return quote(value);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  if (Array.isArray(value)) {
    return value.length === 0 ? 'an empty array' : `an array ${shorten(JSON.stringify(value))}`;
  }
  if (typeof value === 'object') {
    return Object.keys(value).length === 0
      ? 'an empty object'
      : `an object ${shorten(JSON.stringify(value))}`;
  }
  return String(value);
}

/** A list of allowed strings for a message, e.g. `"a", "b", "c" (and 4 more)`. */
export function listChoices(choices: readonly string[], max = 5): string {
  const shown = choices.slice(0, max).map(quote).join(', ');
  return choices.length > max ? `${shown} (and ${choices.length - max} more)` : shown;
}
