import { asCodeBlock } from '../slack/text/code-block.js';

/** A field of a tool's input when it is a string; tool input is the model's, so nothing is assumed. */
const text = (input: unknown, key: string): string | undefined => {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
};

/** An inline code span that holds `value` whole (a link in it is never live). */
const inline = (value: string): string => {
  const longest = (value.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0);
  const ticks = '`'.repeat(longest + 1);
  return `${ticks} ${value.replace(/\s+/g, ' ')} ${ticks}`;
};

/** A fenced block of one language; the fence is longer than any backtick run inside. */
const fenced = (language: string, body: string): string =>
  asCodeBlock(body).replace(/^(`+)\n/, `$1${language}\n`);

/** `old` → `new` as unified-diff lines, every line of each side. */
const diffLines = (before: string, after: string): string[] => [
  ...(before === '' ? [] : before.split('\n').map((line) => `-${line}`)),
  ...(after === '' ? [] : after.split('\n').map((line) => `+${line}`)),
];

/** An MCP tool's name, `mcp__<server>__<tool>`, split; undefined for any other tool. */
export function mcpToolName(toolName: string): { server: string; tool: string } | undefined {
  const match = /^mcp__(.+?)__(.+)$/.exec(toolName);
  return match ? { server: match[1] as string, tool: match[2] as string } : undefined;
}

const json = (value: unknown): string => JSON.stringify(value, null, 2) ?? String(value);

function editPreview(input: unknown): string[] {
  const file = text(input, 'file_path') ?? '(no file_path)';
  const edits: unknown[] = Array.isArray((input as { edits?: unknown }).edits)
    ? ((input as { edits: unknown[] }).edits ?? [])
    : [input];
  const lines = [`--- ${file}`, `+++ ${file}`];
  edits.forEach((edit, index) => {
    const all = (edit as { replace_all?: unknown }).replace_all === true;
    lines.push(`@@ edit ${index + 1} of ${edits.length}${all ? ', every occurrence' : ''} @@`);
    lines.push(...diffLines(text(edit, 'old_string') ?? '', text(edit, 'new_string') ?? ''));
  });
  return [`Edit ${inline(file)}`, '', fenced('diff', lines.join('\n'))];
}

/**
 * What Claude Code wants to do, as Markdown a person can judge from a phone: a Bash command as
 * code with its description, an edit as a diff, a written file's content, a fetched URL, an
 * MCP tool's server, name and arguments; any other tool's input as JSON. Links are put in code
 * spans, and the relay defuses mentions and links in previews in any case.
 */
export function toolPreview(toolName: string, input: unknown): string {
  const mcp = mcpToolName(toolName);
  if (mcp) {
    return [
      `MCP server ${inline(mcp.server)}, tool ${inline(mcp.tool)}, with:`,
      '',
      fenced('json', json(input)),
    ].join('\n');
  }
  switch (toolName) {
    case 'Bash': {
      const description = text(input, 'description');
      return [
        ...(description ? [description, ''] : []),
        fenced('sh', text(input, 'command') ?? json(input)),
      ].join('\n');
    }
    case 'Edit':
    case 'MultiEdit':
      return editPreview(input).join('\n');
    case 'Write': {
      const file = text(input, 'file_path') ?? '(no file_path)';
      return [`Write ${inline(file)}:`, '', fenced('', text(input, 'content') ?? '')].join('\n');
    }
    case 'WebFetch': {
      const prompt = text(input, 'prompt');
      return [
        `Fetch ${inline(text(input, 'url') ?? '(no url)')}`,
        ...(prompt ? ['', `and ask of it: ${prompt}`] : []),
      ].join('\n');
    }
    default:
      return fenced('json', json(input));
  }
}
