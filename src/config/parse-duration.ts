import { err, ok, type Result } from '../core/result.js';

/** How many milliseconds one of each unit is; a number without a unit is seconds. */
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/;

// setTimeout fires at once for anything longer than 2^31 - 1 ms (about 24.8 days)
const LONGEST_MS = 2 ** 31 - 1;

/** The grammar in a few words, for help texts and error messages. */
export const DURATION_FORMAT =
  'a number of seconds (90) or a number and a unit: ms, s, m, h (15m, 1.5h)';

/**
 * Reads a duration into milliseconds: the one grammar of every duration the relay takes
 * (`RELAY_REMIND_AFTER`, `RELAY_ESCALATE_AFTER`, `ask --timeout`), so `90` means 90 seconds
 * everywhere. The error completes a sentence that starts with the setting's name.
 */
export function parseDuration(text: string): Result<number, string> {
  const match = DURATION.exec(text.trim().toLowerCase());
  const shown = JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text);
  if (!match) return err(`expects a duration, ${DURATION_FORMAT}; found ${shown}`);
  const unit = (match[2] ?? 's') as keyof typeof UNIT_MS;
  const ms = Math.round(Number(match[1]) * UNIT_MS[unit]);
  if (ms <= 0) return err(`expects a duration longer than zero; found ${shown}`);
  if (ms > LONGEST_MS)
    return err(`can be at most 596h (the longest a timer waits); found ${shown}`);
  return ok(ms);
}
