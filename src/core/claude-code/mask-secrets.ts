/** What a masked secret is replaced with, after the part that says what kind it was. */
export const MASK = '[masked]';

/** One shape of secret: the text it matches and what of the match stays visible. */
interface SecretShape {
  name: string;
  pattern: RegExp;
  /** the match as posted: a prefix that says what it was, then {@link MASK} */
  replace: (match: string, ...groups: string[]) => string;
}

const keep = (prefix: string) => () => `${prefix}${MASK}`;

/**
 * The shapes masked in what is posted, most specific first (a private key block before a
 * `key=` pair inside it). docs/claude-code.md lists them; change both together.
 */
export const SECRET_SHAPES: readonly SecretShape[] = [
  {
    name: 'private key',
    pattern:
      /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----[\s\S]*?(?:-----END \1-----|$)/g,
    replace: (_m, kind) => `-----BEGIN ${kind}----- ${MASK} -----END ${kind}-----`,
  },
  {
    name: 'Authorization header',
    pattern: /\b((?:proxy-)?authorization\s*[:=]\s*)(?:(bearer|basic|token|digest)\s+)?[^\s'"`]+/gi,
    replace: (_m, lead, scheme) => `${lead}${scheme ? `${scheme} ` : ''}${MASK}`,
  },
  {
    name: 'Slack token',
    pattern: /\b(xox[abeoprs]|xapp)-[A-Za-z0-9-]{8,}/g,
    replace: (_m, kind) => `${kind}-${MASK}`,
  },
  {
    name: 'GitHub token',
    pattern: /\b(gh[opsur]_|github_pat_)[A-Za-z0-9_]{20,}/g,
    replace: (_m, kind) => `${kind}${MASK}`,
  },
  {
    name: 'Anthropic key',
    pattern: /\bsk-ant-[A-Za-z0-9_-]{16,}/g,
    replace: keep('sk-ant-'),
  },
  {
    name: 'OpenAI key',
    pattern: /\bsk-(?:(proj|svcacct|admin)-)?[A-Za-z0-9_-]{20,}/g,
    replace: (_m, kind) => `sk-${kind ? `${kind}-` : ''}${MASK}`,
  },
  {
    name: 'AWS access key id',
    pattern: /\b(AKIA|ASIA|AIDA|AROA)[A-Z0-9]{16}\b/g,
    replace: (_m, kind) => `${kind}${MASK}`,
  },
  {
    name: 'secret assignment',
    // password=…, passwd: …, secret=…, api_key=…, aws_secret_access_key=…, token=… (quotes kept)
    pattern:
      /\b([A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?key|token)["']?\s*[:=]\s*)(["']?)(?![^\s"'&;,)]*\[masked\])[^\s"'&;,)]+/gi,
    replace: (_m, lead, quote) => `${lead}${quote}${MASK}`,
  },
  {
    name: 'password in a URL',
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+@/gi,
    replace: (_m, lead) => `${lead}${MASK}@`,
  },
];

/** Text with every secret of {@link SECRET_SHAPES} masked, and how many were. */
export interface Masked {
  text: string;
  count: number;
}

/**
 * Masks what looks like a credential in agent text before it is posted, so a channel never
 * receives a token because an agent asked to use one. What Claude Code runs is unaffected:
 * only what people are shown is masked.
 */
export function maskSecrets(text: string): Masked {
  let count = 0;
  let masked = text;
  for (const shape of SECRET_SHAPES) {
    masked = masked.replace(shape.pattern, (match: string, ...rest: unknown[]) => {
      count += 1;
      const groups = rest.slice(0, -2).map((group) => (typeof group === 'string' ? group : ''));
      return shape.replace(match, ...groups);
    });
  }
  return { text: masked, count };
}
