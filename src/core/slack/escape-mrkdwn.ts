/**
 * Escapes the three characters Slack's mrkdwn treats as control syntax, so agent text such
 * as `<!channel>`, `<@U123>` or `<http://x|y>` shows literally and pings or hides nothing.
 * `&` goes first so the entities added for `<` and `>` are not escaped twice.
 */
export function escapeMrkdwn(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** Length of one UTF-16 unit of raw text once escaped for mrkdwn. */
export function escapedLength(unit: string): number {
  if (unit === '&') return 5;
  if (unit === '<' || unit === '>') return 4;
  return unit.length;
}
