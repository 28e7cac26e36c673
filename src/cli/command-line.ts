import { AUDIT_OPTIONS, type AuditArgs, toAuditArgs } from '../audit/audit-args.js';
import { HOOK_OPTIONS, type HookArgs, toHookArgs } from '../claude-code/hook-args.js';
import { err, ok, type Result } from '../core/result.js';
import { MCP_OPTIONS, type McpArgs, toMcpArgs } from '../mcp/mcp-args.js';
import { ASK_OPTIONS, type AskArgs, toAskArgs } from './ask-args.js';
import { closestName } from './closest-name.js';
import {
  COMMAND_HELP,
  COMMAND_NAMES,
  type CommandName,
  isCommandName,
  OVERVIEW,
} from './help-texts.js';
import { type Options, type ReadOptions, readOptions } from './read-options.js';

/** A command line, read: a command to run, text to print, or a mistake to report. */
export type CommandLine =
  | { command: 'start' }
  | { command: 'check'; paths: string[] }
  | { command: 'doctor' }
  | { command: 'nodes' }
  | { command: 'audit'; audit: AuditArgs }
  | { command: 'preview'; file: string }
  | { command: 'ask'; ask: AskArgs }
  | { command: 'mcp'; mcp: McpArgs }
  /** `hook` answering Claude Code: a mistake is one line on stderr and exit 0 (see hook help) */
  | { command: 'hook'; hook: HookCommandArgs }
  /** print `text` on stdout, exit 0 */
  | { command: 'help'; text: string }
  | { command: 'version' }
  /** print `message` and `usage` on stderr, exit 2 */
  | { command: 'usage-error'; message: string; usage: string };

/** `hook`'s arguments, or the mistake in them (told in one line; the hook still exits 0). */
export type HookCommandArgs = HookArgs | { action: 'mistake'; message: string };

/** Reads argv (without node and the script): `[command] [options]`, `help [command]`. */
export function readCommandLine(argv: readonly string[]): CommandLine {
  const [first, ...rest] = argv;
  if (first === undefined) return { command: 'start' };
  if (first === '-h' || first === '--help') return { command: 'help', text: OVERVIEW };
  if (first === '-v' || first === '--version') {
    return rest.length === 0 ? { command: 'version' } : mistake(`${first} takes no arguments`);
  }
  if (first === 'help') return readHelp(rest);
  if (isCommandName(first)) return readCommand(first, rest);
  // Options without a command are the default command's (start); a mistake in them is told
  // as the command line's, since no command was named.
  if (first.startsWith('-') && first !== '-') return readCommand('start', argv, true);
  return mistake(unknownCommand(first, TOP_LEVEL_WORDS));
}

/** What may come first on the command line, for "did you mean". */
const TOP_LEVEL_WORDS = [...COMMAND_NAMES, 'help', '--help', '--version'];

/** `unknown command: chek (did you mean check?)`. */
function unknownCommand(word: string, names: readonly string[]): string {
  const meant = closestName(word, names);
  return `unknown command: ${word}${meant === undefined ? '' : ` (did you mean ${meant}?)`}`;
}

function readHelp(names: string[]): CommandLine {
  const [name, ...extra] = names;
  if (name === undefined) return { command: 'help', text: OVERVIEW };
  if (!isCommandName(name)) return mistake(unknownCommand(name, COMMAND_NAMES), 'help');
  if (extra.length > 0) return mistake(`takes one command name (got ${names.join(' ')})`, 'help');
  return { command: 'help', text: COMMAND_HELP[name] };
}

function readCommand(name: CommandName, argv: readonly string[], implicit = false): CommandLine {
  switch (name) {
    case 'start':
      return withOptions(name, argv, {}, implicit, ({ positionals }) =>
        noArguments(positionals, { command: 'start' }),
      );
    case 'doctor':
      return withOptions(name, argv, {}, false, ({ positionals }) =>
        noArguments(positionals, { command: 'doctor' }),
      );
    case 'nodes':
      return withOptions(name, argv, {}, false, ({ positionals }) =>
        noArguments(positionals, { command: 'nodes' }),
      );
    case 'audit':
      return withOptions(name, argv, AUDIT_OPTIONS, false, (read) => {
        const audit = toAuditArgs(read);
        return audit.ok ? ok({ command: 'audit', audit: audit.value }) : audit;
      });
    case 'check':
      return withOptions(name, argv, {}, false, ({ positionals }) =>
        positionals.length > 0
          ? ok({ command: 'check', paths: positionals })
          : err('needs at least one file or folder'),
      );
    case 'preview':
      return withOptions(name, argv, {}, false, ({ positionals: [file, ...extra] }) =>
        file !== undefined && extra.length === 0
          ? ok({ command: 'preview', file })
          : err('needs exactly one q-out-NNN.json file'),
      );
    case 'ask':
      return withOptions(name, argv, ASK_OPTIONS, false, (read) => {
        const ask = toAskArgs(read);
        return ask.ok ? ok({ command: 'ask', ask: ask.value }) : ask;
      });
    case 'mcp':
      return withOptions(name, argv, MCP_OPTIONS, false, (read) => {
        const mcp = toMcpArgs(read);
        return mcp.ok ? ok({ command: 'mcp', mcp: mcp.value }) : mcp;
      });
    case 'hook': {
      const line = withOptions(name, argv, HOOK_OPTIONS, false, (read) => {
        const hook = toHookArgs(read);
        return hook.ok ? ok({ command: 'hook', hook: hook.value }) : hook;
      });
      // Claude Code reads exit 2 as "block the tool": the hook itself never exits with it
      const installing = argv.includes('install') || argv.includes('uninstall');
      return line.command === 'usage-error' && !installing
        ? { command: 'hook', hook: { action: 'mistake', message: line.message } }
        : line;
    }
  }
}

/**
 * Reads a command's options and hands them to `build`; `--help` gives the command's help, and
 * any mistake is reported with the command's help as its usage, or, when the command was
 * `implicit` (not named), as the command line's, with the overview.
 */
function withOptions<const O extends Options>(
  name: CommandName,
  argv: readonly string[],
  options: O,
  implicit: boolean,
  build: (read: Extract<ReadOptions<O>, { kind: 'read' }>) => Result<CommandLine, string>,
): CommandLine {
  const read = readOptions(argv, options);
  if (read.kind === 'help') return { command: 'help', text: COMMAND_HELP[name] };
  const built = read.kind === 'mistake' ? err(read.message) : build(read);
  if (built.ok) return built.value;
  return implicit ? mistake(built.error) : mistake(built.error, name, COMMAND_HELP[name]);
}

function noArguments(positionals: string[], command: CommandLine): Result<CommandLine, string> {
  return positionals.length === 0
    ? ok(command)
    : err(`takes no arguments (got ${positionals.join(' ')})`);
}

/** A usage error: `o7-slack-relay <where>: <message>`, then the usage it breaks. */
const mistake = (message: string, where?: string, usage = OVERVIEW): CommandLine => ({
  command: 'usage-error',
  message: `o7-slack-relay${where ? ` ${where}` : ''}: ${message}`,
  usage,
});
