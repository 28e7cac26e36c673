import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { type AskTokenEntry, parseAskTokens } from '../core/remote/ask-tokens.js';
import { ErrorCode, RelayError } from '../errors.js';

/** Who a presented bearer token is. */
export type TokenHolder =
  | { kind: 'known'; name: string }
  | { kind: 'revoked'; name: string }
  | { kind: 'unknown' }
  /** the file cannot be read now: nobody is let in until it is fixed */
  | { kind: 'broken'; problem: string };

const digest = (token: string) => createHash('sha256').update(token).digest();

/** The file as read, with what it looked like then (a change reads it again). */
type Table = { stamp: string } & (
  | { entries: { name: string; digest: Buffer; revoked: boolean }[] }
  | { problem: string }
);

/** Inode, size and time: what changes when the file is edited or replaced. */
const stampOf = (info: { ino: number; size: number; mtimeMs: number }) =>
  `${info.ino}:${info.size}:${info.mtimeMs}`;

async function readTable(file: string): Promise<Table> {
  let text: string;
  let stamp = 'unreadable';
  try {
    stamp = stampOf(await stat(file));
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { stamp, problem: `${file} cannot be read (${(error as Error).message})` };
  }
  const parsed = parseAskTokens(text);
  if (!parsed.ok) return { stamp, problem: `${file}: ${parsed.error.join('; ')}` };
  return {
    stamp,
    entries: parsed.value.map((entry: AskTokenEntry) => ({
      name: entry.name,
      digest: digest(entry.token),
      revoked: entry.revoked,
    })),
  };
}

/** The ask tokens of `RELAY_ASK_TOKENS`, read again whenever the file changes. */
export interface AskTokens {
  /** Who holds `presented`; compared by digest in constant time, never logged. */
  identify(presented: string): Promise<TokenHolder>;
  /** How many tokens the file holds, and how many of them are revoked. */
  counts(): { tokens: number; revoked: number };
}

/**
 * Loads the tokens file; a file that cannot be read or parsed at start is a configuration
 * error naming the line. Afterwards each request looks at the file's inode, size and time
 * first (one `stat`), so an edit takes effect at the next request with no restart; a file
 * broken by an edit lets nobody in (a revoked token must not come back) until it is fixed.
 */
export async function loadAskTokens(file: string): Promise<AskTokens> {
  const first = await readTable(file);
  if ('problem' in first) {
    throw new RelayError(
      ErrorCode.ConfigInvalid,
      `RELAY_ASK_TOKENS: ${first.problem}. Each line is "<name> <token>" (or "<name> <token> revoked"); see docs/remote-relay.md.`,
    );
  }
  let table: Table = first;
  const current = async () => {
    const info = await stat(file).catch(() => undefined);
    if ((info ? stampOf(info) : 'unreadable') !== table.stamp) table = await readTable(file);
    return table;
  };
  return {
    async identify(presented) {
      const now = await current();
      if ('problem' in now) return { kind: 'broken', problem: now.problem };
      const given = digest(presented);
      const found = now.entries.find((entry) => timingSafeEqual(entry.digest, given));
      if (!found) return { kind: 'unknown' };
      return { kind: found.revoked ? 'revoked' : 'known', name: found.name };
    },
    counts() {
      const entries = 'entries' in table ? table.entries : [];
      return { tokens: entries.length, revoked: entries.filter((e) => e.revoked).length };
    },
  };
}
