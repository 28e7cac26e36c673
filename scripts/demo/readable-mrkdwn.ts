import { type ReadingTime, slackDateText } from './slack-date.js';

/** What mrkdwn is read with: the names mentions show, and when and where dates are read. */
export interface ReadingContext {
  names?: Readonly<Record<string, string>>;
  /** Without it, a date shows its fallback text. */
  reading?: ReadingTime;
}

/** `<!date^unix^format|fallback>`'s parts after the `!`. */
const DATE_TOKEN = /^date\^(\d+)\^([^^|]*)(?:\^[^|]*)?$/;

/** One `<…>` of mrkdwn (a mention, a channel, a date, a link) as Slack shows it. */
function shownToken(inner: string, context: ReadingContext): string {
  const bar = inner.indexOf('|');
  const target = bar < 0 ? inner : inner.slice(0, bar);
  const label = bar < 0 ? undefined : inner.slice(bar + 1);
  if (target.startsWith('@')) return `@${context.names?.[target.slice(1)] ?? target.slice(1)}`;
  if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
  const date = DATE_TOKEN.exec(target.slice(1));
  if (target.startsWith('!') && date && context.reading) {
    return slackDateText(Number(date[1]), date[2] as string, label ?? '', context.reading);
  }
  // a date read without a time, a group or a special mention shows its label when it has one
  if (target.startsWith('!')) return label ?? `@${target.slice(1)}`;
  return label === undefined ? target : `${label} (${target})`;
}

/**
 * `*bold*`, `_italic_` and `~strike~` as Slack reads them: a mark right before a word's start
 * and one right after its end, on one line. Slack shows the words without the marks.
 */
const EMPHASIS = /(^|[^\p{L}\p{N}])([*_~])(?=\S)([^\n]*?\S)\2(?![\p{L}\p{N}])/gu;

/** A line's text without emphasis marks; code spans (`…`) are kept as they are. */
function withoutEmphasis(line: string): string {
  return line
    .split(/(`[^`\n]+`)/)
    .map((part, i) => {
      if (i % 2 === 1) return part;
      let text = part;
      // nested marks (*_both_*) come off one layer at a time
      for (let pass = 0; pass < 3; pass += 1) text = text.replace(EMPHASIS, '$1$3');
      return text;
    })
    .join('');
}

/**
 * Slack mrkdwn as a person reads it on a terminal: mentions, dates and links in their visible
 * form, emphasis without its marks, a quote (`>` at a line's start) with a bar, and the three
 * escaped characters back as themselves. An agent's `*` and `_` reach Slack as they are and
 * are read there as marks too, so taking them off shows what Slack shows.
 */
export function readableMrkdwn(text: string, context: ReadingContext = {}): string {
  return text
    .replace(/<([^<>]*)>/g, (_, inner: string) => shownToken(inner, context))
    .split('\n')
    .map((line) => withoutEmphasis(line.replace(/^>\s?/, '│ ')))
    .join('\n')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
