import { isHiddenControl, SHOWN_CONTROL_LENGTH, showControls } from './show-controls.js';

/**
 * Escapes the three characters Slack's mrkdwn treats as control syntax, so agent text such
 * as `<!channel>`, `<@U123>` or `<http://x|y>` shows literally and pings or hides nothing,
 * defuses plain `@here`/`@name` (see {@link defuseMentions}) and writes out control
 * characters (see {@link showControls}). `&` goes first so the entities added for `<` and `>`
 * are not escaped twice.
 */
export function escapeMrkdwn(text: string): string {
  return defuseMentions(showControls(text))
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** U+2060 WORD JOINER: invisible and unbreakable, and no name character. */
const MENTION_BREAK = '\u2060';

/**
 * An `@` where Slack could read a mention: anywhere but right after a letter, a digit, or a
 * character that comes before `@` in addresses and paths (`bob@example.com`,
 * `npmjs.com/package/@scope/name`, `a+b@c`), which stay as they are so links keep working.
 */
const MENTION_AT = /(?<![\p{L}\p{N}/.\-+=%])@/gu;

/**
 * Plain `@here`, `@channel`, `@everyone` and `@name` are shown but can never notify anyone:
 * a word joiner after the `@` means no name follows it. Slack parses these in a message's
 * `text` and in mrkdwn without `verbatim: true`; `verbatim` alone would not do, since it
 * exists neither for `text` nor for markdown blocks, and it also stops plain URLs in agent
 * text from becoming links.
 */
export function defuseMentions(text: string): string {
  return text.replace(MENTION_AT, `@${MENTION_BREAK}`);
}

/**
 * Length of one UTF-16 unit of raw text once escaped for mrkdwn; an `@` counts with the word
 * joiner it may get and a CR as if it were shown, so a cut made by these lengths always fits.
 */
export function escapedLength(unit: string): number {
  if (unit === '&') return 5;
  if (isHiddenControl(unit)) return SHOWN_CONTROL_LENGTH;
  if (unit === '<' || unit === '>') return 4;
  if (unit === '@') return 2;
  return unit.length;
}
