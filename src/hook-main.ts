import { runHookCommand } from './claude-code/hook-command.js';
import { readCommandLine } from './cli/command-line.js';
import { exitWith } from './exit-code.js';

/**
 * The entry point of `o7-slack-relay hook` when it runs from its one-file bundle,
 * dist/hook/hook.cjs (scripts/bundle-hook.mjs). Claude Code starts the hook for every
 * question and permission prompt and waits for it, so its start counts: node loading the
 * ~80 modules and zod one by one, the hook took 270 ms from its start to the prompt in Slack;
 * one file, compiled from V8's code cache, takes 130 (node's own start is 97 of them; figure
 * 12 in docs/performance.md). bin/o7-slack-relay.js runs this
 * for command lines that begin with `hook`; everything else goes through main.ts, which runs
 * `hook` the same way when started directly.
 */
async function hookMain(argv: string[]): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const err = (line: string) => process.stderr.write(`${line}\n`);
  const args = readCommandLine(argv);
  switch (args.command) {
    case 'hook':
      return runHookCommand(args.hook, { out, err });
    case 'help':
      out(args.text);
      return 0;
    case 'usage-error':
      err(`${args.message}\n\n${args.usage}`);
      return 2;
    default:
      throw new Error(`the hook bundle was started for \`${argv.join(' ')}\`, not for hook`);
  }
}

exitWith(hookMain(process.argv.slice(2)));
