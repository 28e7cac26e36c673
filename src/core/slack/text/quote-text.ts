import type { SectionBlock } from '@slack/types';
import { mrkdwnSection } from '../layout/block-builders.js';
import { BLOCK_KIT_LIMITS } from '../layout/block-kit-limits.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { rawFitForEscaped, softBreak } from './text-cut.js';

const quote = (escaped: string): string =>
  escaped
    .split('\n')
    .map((line) => `>${line}`)
    .join('\n');

/**
 * Raw text escaped and quoted line by line in at most `max` characters; `kept` is how many
 * raw units made it in (less than `raw.length` when the text had to be cut).
 */
export function quoteEscaped(raw: string, max: number): { text: string; kept: number } {
  let budget = max;
  for (;;) {
    const fit = rawFitForEscaped(raw, budget);
    const kept = fit >= raw.length ? raw.length : softBreak(raw, fit);
    const text = quote(escapeMrkdwn(raw.slice(0, kept)));
    if (text.length <= max || kept === 0) return { text, kept };
    // every line adds one `>`: shrink by the overshoot and try again
    budget -= text.length - max;
  }
}

// enough for "\n_(first 2890 of 123456789 characters shown; …)_" with a short `whereFull`
const NOTE_ROOM = 120;

/**
 * A section with `heading` (escaped mrkdwn) then `raw` quoted; cut to fit 3000 characters
 * with a note that says how much is shown and `whereFull` (where the rest can be read).
 */
export function quotedSection(heading: string, raw: string, whereFull: string): SectionBlock {
  const max = BLOCK_KIT_LIMITS.sectionText;
  const whole = quoteEscaped(raw, max - heading.length);
  if (whole.kept === raw.length) return mrkdwnSection(heading + whole.text);
  const cut = quoteEscaped(raw, max - heading.length - NOTE_ROOM - whereFull.length);
  const note = `\n_(first ${cut.kept} of ${raw.length} characters shown; ${whereFull})_`;
  return mrkdwnSection(heading + cut.text + note);
}
