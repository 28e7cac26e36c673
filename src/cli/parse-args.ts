import { ASK_EXIT_CODE_HELP } from './ask-exit-codes.js';
import { type AskArgs, parseAskArgs } from './parse-ask-args.js';

/** A command line, read. */
export type ParsedArgs =
  | { command: 'start' }
  | { command: 'ask'; ask: AskArgs }
  | { command: 'check'; paths: string[] }
  | { command: 'doctor' }
  | { command: 'nodes' }
  | { command: 'preview'; file: string }
  | { command: 'help' }
  | { command: 'usage-error'; message: string };

export const HELP_TEXT = `o7-slack-relay: answer o7 agents' questions from Slack.

Usage:
  o7-slack-relay [start]             watch run folders and relay question batches to Slack
  o7-slack-relay check <path>…       validate q-out / q-answers files (a file, a run folder or a runs folder)
  o7-slack-relay doctor              check the Slack tokens, the channel and the Socket Mode connection
  o7-slack-relay nodes               shared mode: list the relays on RELAY_REDIS_URL, their last heartbeat and open batches
  o7-slack-relay preview <q-out>     print the Block Kit JSON the relay would post, with a Block Kit Builder link
  o7-slack-relay ask [FILE|-]        ask an agent's open questions in Slack through the running relay; print the resume message
  o7-slack-relay help                this text

ask reads the agent's final message from FILE or standard input. Options:
  --timeout <90|90s|15m|2h>          give up after this long and withdraw the questions
  --second-attempt --plan <id> --phase <phase>
                                     a malformed envelope writes docs/plans/<id>/dispatch-failure.md
ask exit codes:
${ASK_EXIT_CODE_HELP.map(([code, meaning]) => `  ${code}  ${meaning}`).join('\n')}

Configuration comes from the environment or a .env file; see .env.example.
ask only reads RELAY_STATE_DIR: it hands questions to the relay and never connects to Slack.`;

/** Reads argv (without node and the script) into a command. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const [command = 'start', ...rest] = argv;
  switch (command) {
    case 'start':
      return rest.length === 0
        ? { command: 'start' }
        : { command: 'usage-error', message: `start takes no arguments (got ${rest.join(' ')})` };
    case 'check':
      return rest.length > 0
        ? { command: 'check', paths: rest }
        : { command: 'usage-error', message: 'check needs at least one file or folder' };
    case 'doctor':
      return rest.length === 0
        ? { command: 'doctor' }
        : { command: 'usage-error', message: `doctor takes no arguments (got ${rest.join(' ')})` };
    case 'nodes':
      return rest.length === 0
        ? { command: 'nodes' }
        : { command: 'usage-error', message: `nodes takes no arguments (got ${rest.join(' ')})` };
    case 'preview':
      return rest.length === 1 && rest[0]
        ? { command: 'preview', file: rest[0] }
        : { command: 'usage-error', message: 'preview needs exactly one q-out-NNN.json file' };
    case 'ask': {
      const parsed = parseAskArgs(rest);
      return parsed.ok
        ? { command: 'ask', ask: parsed.value }
        : { command: 'usage-error', message: parsed.error };
    }
    case 'help':
    case '--help':
    case '-h':
      return { command: 'help' };
    default:
      return { command: 'usage-error', message: `unknown command: ${command}` };
  }
}
