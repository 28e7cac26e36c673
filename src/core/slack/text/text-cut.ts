import { escapedLength, escapeMrkdwn } from './escape-mrkdwn.js';

/** Marks text that was cut. */
export const ELLIPSIS = '…';

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** The largest cut point `<= at` that does not split a surrogate pair. */
export function safeCutPoint(text: string, at: number): number {
  if (at <= 0) return 0;
  if (at >= text.length) return text.length;
  return isHighSurrogate(text.charCodeAt(at - 1)) ? at - 1 : at;
}

/** Plain text cut to `max` UTF-16 units, ending in "…" when anything was dropped. */
export function truncatePlain(text: string, max: number): string {
  if (text.length <= max) return text;
  return text.slice(0, safeCutPoint(text, max - ELLIPSIS.length)) + ELLIPSIS;
}

/** Plain text cut to `max` keeping the END (paths are most telling at their tail). */
export function truncatePlainStart(text: string, max: number): string {
  if (text.length <= max) return text;
  let from = text.length - (max - ELLIPSIS.length);
  // never start on the low half of a surrogate pair
  if (from > 0 && isHighSurrogate(text.charCodeAt(from - 1))) from += 1;
  return ELLIPSIS + text.slice(from);
}

/**
 * How many UTF-16 units of `raw` fit in `max` characters once escaped for mrkdwn. Cutting the
 * raw text (then escaping) never leaves half an `&amp;` behind.
 */
export function rawFitForEscaped(raw: string, max: number): number {
  let used = 0;
  let index = 0;
  while (index < raw.length) {
    const width = isHighSurrogate(raw.charCodeAt(index)) ? 2 : 1;
    const cost = width === 2 ? 2 : escapedLength(raw[index] as string);
    if (used + cost > max) break;
    used += cost;
    index += width;
  }
  return index;
}

/** Escaped text no longer than `max`; `cut` is how many raw units were kept. */
export function cutEscaped(raw: string, max: number): { text: string; kept: number } {
  const kept = rawFitForEscaped(raw, max);
  return { text: escapeMrkdwn(raw.slice(0, kept)), kept };
}

/**
 * Where to end a chunk of at most `fit` units: at a line break or space in the last part of
 * the chunk when there is one, so long texts split between words rather than inside them.
 */
export function softBreak(raw: string, fit: number): number {
  if (fit >= raw.length) return raw.length;
  const floor = Math.floor(fit * 0.6);
  const newline = raw.lastIndexOf('\n', fit - 1);
  if (newline >= floor) return newline + 1;
  const space = raw.lastIndexOf(' ', fit - 1);
  if (space >= floor) return space + 1;
  return safeCutPoint(raw, fit);
}

/** Raw text split into pieces whose escaped forms have at most `max` characters, between words. */
export function splitForEscaping(raw: string, max: number): string[] {
  return splitRaw(raw, (rest) => rawFitForEscaped(rest, max));
}

/** Raw text split into escaped chunks of at most `max` characters each, between words. */
export function splitEscaped(raw: string, max: number): string[] {
  return splitForEscaping(raw, max).map(escapeMrkdwn);
}

/** Raw text split into chunks of at most `max` UTF-16 units each, between lines if possible. */
export function splitPlain(raw: string, max: number): string[] {
  return splitRaw(raw, (rest) => safeCutPoint(rest, max));
}

function splitRaw(raw: string, fitOf: (rest: string) => number): string[] {
  const chunks: string[] = [];
  let rest = raw;
  while (rest.length > 0) {
    const fit = fitOf(rest);
    // a single character wider than the chunk cannot happen for max >= 5; guard the loop anyway
    const end = Math.max(1, softBreak(rest, fit));
    chunks.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  return chunks;
}
