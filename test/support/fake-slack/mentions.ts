import { isJsonObject, type JsonObject } from './types.js';

/** Who a mention reaches: `here`, `channel`, `everyone`, a user id or a user group id. */
export type MentionTarget = 'here' | 'channel' | 'everyone' | (string & {});

/** One mention Slack made out of text the app sent. */
export interface ParsedMention {
  target: MentionTarget;
  /** `markup` for `<!here>`/`<@U…>`/`<!subteam^S…>`, `plain` for `@here`/`@name` in text */
  how: 'markup' | 'plain';
  /** where it was: `message`, `ephemeral`, `modal` or `home`, and the field */
  surface: 'message' | 'ephemeral' | 'modal' | 'home';
  field: string;
  /** the text as Slack matched it, for failure messages */
  matched: string;
}

/** Resolves a plain `@name` to a user id or user group id, if someone has that name or handle. */
export type NameLookup = (name: string) => string | undefined;

const SPECIAL = new Set(['here', 'channel', 'everyone']);

/** `<!here>`, `<!channel|@channel>`, `<@U123>`, `<@U123|bob>`, `<!subteam^S123|@team>`. */
const MARKUP = /<(!here|!channel|!everyone|@[UW][A-Z0-9]+|!subteam\^S[A-Z0-9]+)(?:\|[^>]*)?>/g;

/**
 * A plain `@word`, where Slack's clients and its message parser look for one: at the start of
 * the text or after a space or an opening mark (Slack's own client treats `(`, `>`, `*`, `_`
 * this way; quotes, brackets, `~` and backticks are taken too, to be safe). An `@` inside a
 * word (`bob@example.com`, `/@scope/pkg`) or followed by anything but a name character is not
 * a mention, so a zero-width joiner after the `@` leaves it as text.
 */
const PLAIN = /(?<=^|[\s([{>*_~`"'])@([A-Za-z0-9][A-Za-z0-9._-]*)/g;

function markupTarget(inner: string): MentionTarget {
  if (inner.startsWith('!subteam^')) return inner.slice('!subteam^'.length);
  return inner.slice(1);
}

/**
 * The mentions in one text. `plain` turns on Slack's automatic parsing of plain `@here` and
 * `@name` (mrkdwn objects without `verbatim: true`, and a message's `text`); `markup` the
 * explicit `<!here>`-style tokens (any mrkdwn, and `text`).
 */
export function mentionsIn(
  text: string,
  opts: { markup: boolean; plain: boolean; names: NameLookup },
): { target: MentionTarget; how: 'markup' | 'plain'; matched: string }[] {
  const found: { target: MentionTarget; how: 'markup' | 'plain'; matched: string }[] = [];
  if (opts.markup) {
    for (const match of text.matchAll(MARKUP)) {
      found.push({ target: markupTarget(match[1] as string), how: 'markup', matched: match[0] });
    }
  }
  if (opts.plain) {
    for (const match of text.matchAll(PLAIN)) {
      // Slack drops trailing punctuation: "@here." and "@bob_" still mention
      const word = (match[1] as string).replace(/[._-]+$/, '');
      const special = word.toLowerCase();
      const target = SPECIAL.has(special) ? special : opts.names(word);
      if (target) found.push({ target, how: 'plain', matched: match[0] });
    }
  }
  return found;
}

/** A rich_text element that is itself a mention (`user`, `usergroup`, `broadcast`). */
function richTextMention(element: JsonObject): MentionTarget | undefined {
  if (element.type === 'user' && typeof element.user_id === 'string') return element.user_id;
  if (element.type === 'usergroup' && typeof element.usergroup_id === 'string') {
    return element.usergroup_id;
  }
  if (element.type === 'broadcast' && typeof element.range === 'string') return element.range;
  return undefined;
}

/**
 * Every mention in a message or view: its `text` (a message's notification text, parsed like
 * mrkdwn), each mrkdwn object (plain mentions only without `verbatim: true`), markdown blocks
 * (standard Markdown: plain mentions, no `<!…>` markup) and rich-text mention elements.
 * plain_text is never parsed.
 */
export function mentionsInContent(
  content: { text?: string | undefined; blocks?: readonly unknown[] | undefined },
  surface: ParsedMention['surface'],
  names: NameLookup,
): ParsedMention[] {
  const out: ParsedMention[] = [];
  const add = (text: string, field: string, opts: { markup: boolean; plain: boolean }) => {
    for (const m of mentionsIn(text, { ...opts, names })) out.push({ ...m, surface, field });
  };
  if (content.text) add(content.text, 'text', { markup: true, plain: true });
  const walk = (value: unknown, path: string) => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        walk(item, `${path}/${i}`);
      });
      return;
    }
    if (!isJsonObject(value)) return;
    if (value.type === 'mrkdwn' && typeof value.text === 'string') {
      add(value.text, `${path}/text`, { markup: true, plain: value.verbatim !== true });
    } else if (value.type === 'markdown' && typeof value.text === 'string') {
      add(value.text, `${path}/text`, { markup: false, plain: true });
    }
    const rich = richTextMention(value);
    if (rich) out.push({ target: rich, how: 'markup', surface, field: path, matched: rich });
    for (const [key, child] of Object.entries(value)) {
      if (typeof child === 'object' && child !== null) walk(child, `${path}/${key}`);
    }
  };
  walk(content.blocks ?? [], 'blocks');
  return out;
}
