import { type ParseArgsConfig, parseArgs } from 'node:util';

/** The options a command takes, as node's `parseArgs` describes them. */
export type Options = NonNullable<ParseArgsConfig['options']>;

type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{ options: O; allowPositionals: true; strict: true }>
>;

/** A command's arguments, read: a request for its help, a mistake to report, or its values. */
export type ReadOptions<O extends Options> =
  | { kind: 'help' }
  | { kind: 'mistake'; message: string }
  | { kind: 'read'; values: Parsed<O>['values']; positionals: string[] };

/** `-h` and `--help`, which every command takes. */
const HELP = { help: { type: 'boolean', short: 'h' } } as const;

// A value that looks like an option (`--timeout --plan x`) is a forgotten value, as node has it.
const looksLikeOption = (value: string): boolean => value.length > 1 && value.startsWith('-');

/**
 * Reads a command's arguments with node's `parseArgs`. `-h`/`--help` anywhere before `--`
 * asks for the command's help, whatever else is there; the usual mistakes are named in the
 * project's words (node's messages lead with workarounds).
 */
export function readOptions<const O extends Options>(
  argv: readonly string[],
  options: O,
): ReadOptions<O> {
  const all: Options = { ...options, ...HELP };
  const { tokens } = parseArgs({
    args: argv,
    options: all,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  if (tokens.some((token) => token.kind === 'option' && token.name === 'help')) {
    return { kind: 'help' };
  }
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const option = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    if (option === undefined)
      return { kind: 'mistake', message: `unknown option ${token.rawName}` };
    if (option.type === 'boolean' && token.value !== undefined) {
      return { kind: 'mistake', message: `${token.rawName} takes no value` };
    }
    if (
      option.type === 'string' &&
      (token.value === undefined || (!token.inlineValue && looksLikeOption(token.value)))
    ) {
      return { kind: 'mistake', message: `${token.rawName} needs a value` };
    }
  }
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options,
      strict: true,
      allowPositionals: true,
    });
    return { kind: 'read', values, positionals };
  } catch (error) {
    // only what the checks above do not foresee; node's first line says what it is
    return { kind: 'mistake', message: String((error as Error).message).split('\n')[0] ?? '' };
  }
}
