/**
 * Slack mrkdwn as a person reads it on a terminal: mentions and links in their visible form,
 * the three escaped characters back as themselves. Emphasis marks (`*bold*`) stay: mrkdwn has
 * no escape for them, so taking them out could drop characters the agent wrote.
 */
export function readableMrkdwn(text: string, names: Readonly<Record<string, string>> = {}): string {
  const shown = text.replace(/<([^<>]*)>/g, (_, inner: string) => {
    const bar = inner.indexOf('|');
    const target = bar < 0 ? inner : inner.slice(0, bar);
    const label = bar < 0 ? undefined : inner.slice(bar + 1);
    if (target.startsWith('@')) return `@${names[target.slice(1)] ?? target.slice(1)}`;
    if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
    // a date, a group or a special mention shows its label when it has one (for a date, the
    // text Slack falls back to)
    if (target.startsWith('!')) return label ?? `@${target.slice(1)}`;
    return label === undefined ? target : `${label} (${target})`;
  });
  return shown.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
