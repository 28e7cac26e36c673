/** How many milliseconds one of each unit a duration may use is. */
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;

const DURATION = /^(\d{1,6})\s*([smh])$/;

/**
 * Reads a duration like `30s`, `15m` or `2h` into milliseconds; `undefined` when it is not
 * one (a positive whole number followed by s, m or h).
 */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim().toLowerCase());
  if (!match) return undefined;
  const amount = Number.parseInt(match[1] as string, 10);
  if (amount <= 0) return undefined;
  return amount * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** A duration in words people read in a reminder, e.g. `15m` → "15 minutes". */
export function describeDuration(ms: number): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (ms % UNIT_MS.h === 0) return plural(ms / UNIT_MS.h, 'hour');
  if (ms % UNIT_MS.m === 0) return plural(ms / UNIT_MS.m, 'minute');
  return plural(Math.round(ms / UNIT_MS.s), 'second');
}
