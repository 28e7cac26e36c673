import { err, ok, type Result } from '../result.js';

/** One line of the ask tokens file: who holds the token, and whether it was taken back. */
export interface AskTokenEntry {
  /** shown in Slack and the logs beside what this token asked; never the token itself */
  name: string;
  token: string;
  revoked: boolean;
}

/** A token's holder's name: a person or machine, short enough for a Slack line. */
export const TOKEN_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,62}$/;

/** Fewer characters than this is a token someone could guess; `openssl rand -hex 32` gives 64. */
export const MIN_TOKEN_LENGTH = 32;

const TOKEN_CHARS = /^[A-Za-z0-9._~+/=-]+$/;

/** The word that, third on a line, takes the token back while keeping its name known. */
export const REVOKED_WORD = 'revoked';

/**
 * Reads the ask tokens file (`RELAY_ASK_TOKENS`): one token per line, `<name> <token>`, or
 * `<name> <token> revoked` for one taken back (its holder is then told so, not just "wrong
 * token"); blank lines and lines starting with `#` are skipped. Problems name the line and
 * never quote a word of it: with its columns swapped, a line's first word is its token.
 */
export function parseAskTokens(text: string): Result<AskTokenEntry[], string[]> {
  const entries: AskTokenEntry[] = [];
  const problems: string[] = [];
  const names = new Set<string>();
  const tokens = new Set<string>();
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const at = `line ${index + 1}`;
    const [name = '', token = '', mark, ...rest] = line.split(/\s+/);
    if (token === '' || rest.length > 0 || (mark !== undefined && mark !== REVOKED_WORD)) {
      problems.push(
        `${at} is not "<name> <token>" or "<name> <token> ${REVOKED_WORD}" (${line.split(/\s+/).length} words)`,
      );
      continue;
    }
    if (!TOKEN_NAME.test(name)) {
      problems.push(
        `${at}: the name must be 1 to 63 letters, digits, ".", "_", "@" or "-", starting with a letter or digit`,
      );
      continue;
    }
    if (token.length < MIN_TOKEN_LENGTH || !TOKEN_CHARS.test(token)) {
      problems.push(
        `${at}: the token (the second word) must be at least ${MIN_TOKEN_LENGTH} characters of letters, digits and ._~+/=- (make one with: openssl rand -hex 32)`,
      );
      continue;
    }
    if (names.has(name))
      problems.push(
        `${at}: its name is on an earlier line too (give a new token a new name, e.g. ann-laptop-2)`,
      );
    else if (tokens.has(token)) problems.push(`${at}: its token is on an earlier line too`);
    else entries.push({ name, token, revoked: mark === REVOKED_WORD });
    names.add(name);
    tokens.add(token);
  }
  return problems.length > 0 ? err(problems) : ok(entries);
}
