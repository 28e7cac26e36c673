/** When and where a date is read: "today" depends on both. */
export interface ReadingTime {
  now: Date;
  /** an IANA time zone; the system's own when left out */
  timeZone?: string;
}

const DAY_WORDS: Record<number, string> = { [-1]: 'yesterday', 0: 'today', 1: 'tomorrow' };

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
function ordinal(day: number): string {
  const teen = day % 100 >= 11 && day % 100 <= 13;
  const suffix = teen ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10];
  return `${day}${suffix ?? 'th'}`;
}

/**
 * The text of one of Slack's date tokens (`{date_short_pretty}`, `{time}` …) for `at`, as an
 * English-speaking reader in `timeZone` sees it; undefined for a token Slack has and this
 * does not.
 */
function tokenText(token: string, at: Date, reading: ReadingTime): string | undefined {
  const zone = reading.timeZone === undefined ? {} : { timeZone: reading.timeZone };
  const parts = (date: Date, options: Intl.DateTimeFormatOptions) =>
    Object.fromEntries(
      new Intl.DateTimeFormat('en-US', { ...zone, ...options })
        .formatToParts(date)
        .map((part) => [part.type, part.value]),
    );
  const day = (date: Date) => {
    const p = parts(date, { year: 'numeric', month: 'numeric', day: 'numeric' });
    return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day)) / 86_400_000;
  };
  const long = parts(at, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
  const short = parts(at, { year: 'numeric', month: 'short', day: 'numeric' });
  const num = parts(at, { year: 'numeric', month: '2-digit', day: '2-digit' });
  const dated: Record<string, string> = {
    date_num: `${num.year}-${num.month}-${num.day}`,
    date: `${long.month} ${ordinal(Number(long.day))}, ${long.year}`,
    date_short: `${short.month} ${short.day}, ${short.year}`,
    date_long: `${long.weekday}, ${long.month} ${ordinal(Number(long.day))}, ${long.year}`,
  };
  const relative = DAY_WORDS[day(at) - day(reading.now)];
  const time = (seconds: boolean) =>
    new Intl.DateTimeFormat('en-US', {
      ...zone,
      hour: 'numeric',
      minute: '2-digit',
      ...(seconds ? { second: '2-digit' } : {}),
    }).format(at);
  switch (token) {
    case 'date_pretty':
    case 'date_short_pretty':
    case 'date_long_pretty':
      return relative ?? dated[token.replace('_pretty', '')];
    case 'time':
      return time(false);
    case 'time_secs':
      return time(true);
    default:
      return dated[token];
  }
}

/**
 * Slack's `<!date^unix^format|fallback>` as Slack shows it to a reader: each `{token}` of
 * `format` filled in for that reader's time zone. Its fallback when `format` has a token
 * this does not know, as a Slack client that cannot format it would.
 */
export function slackDateText(
  unix: number,
  format: string,
  fallback: string,
  reading: ReadingTime,
): string {
  const at = new Date(unix * 1000);
  if (Number.isNaN(at.getTime())) return fallback;
  let unknown = false;
  const text = format.replace(/\{(\w+)\}/g, (_, token: string) => {
    const filled = tokenText(token, at, reading);
    if (filled === undefined) unknown = true;
    return filled ?? '';
  });
  return unknown ? fallback : text;
}
