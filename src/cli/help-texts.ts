import { DURATION_FORMAT } from '../config/parse-duration.js';
import { MCP_HELP } from '../mcp/mcp-args.js';
import { ASK_EXIT_CODE_HELP } from './ask-exit-codes.js';

/** The commands, in the order the overview lists them. */
export const COMMAND_NAMES = [
  'start',
  'check',
  'doctor',
  'nodes',
  'audit',
  'preview',
  'ask',
  'mcp',
  'hook',
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

export const isCommandName = (name: string): name is CommandName =>
  (COMMAND_NAMES as readonly string[]).includes(name);

const HELP_OPTION = '  -h, --help              show this help';

/** `o7-slack-relay --help`: every command in a line. */
export const OVERVIEW = `Usage: o7-slack-relay [command] [options]

Answer o7 agents' clarifying questions from Slack.

Commands:
  start                   watch run folders and post question batches to Slack (the default)
  check <path>...         validate q-out and q-answers files
  doctor                  check the Slack tokens, scopes and channel, with a fix for each failure
  nodes                   shared mode: list the relays on RELAY_REDIS_URL and their open batches
  audit                   print the decisions made in Slack: who answered what, when, and how
  preview <q-out file>    print the Block Kit JSON the relay would post for a q-out file
  ask [FILE|-]            ask an agent's open questions in Slack and print the reply
  mcp                     serve ask_user and request_approval to any MCP client on stdio
  hook [install]          answer Claude Code's questions and permission prompts in Slack
  help [command]          show this help, or a command's

Options:
${HELP_OPTION}
  -v, --version           print the version

Configuration comes from the environment or a .env file in the current folder (see
.env.example). Run 'o7-slack-relay help <command>' for a command's options.`;

/** `o7-slack-relay <command> --help`, and what a mistake on its command line is followed by. */
export const COMMAND_HELP: Record<CommandName, string> = {
  start: `Usage: o7-slack-relay [start]

Watch the run folders (RELAY_WATCH) and post each batch of questions to Slack; write the
answer file when someone submits. SIGINT or SIGTERM stops it cleanly.

Options:
${HELP_OPTION}

Configuration comes from the environment or .env (see .env.example); a missing or wrong
value stops it with exit code 2, naming the variable.

Examples:
  o7-slack-relay
  RELAY_WATCH=/srv/app/.7/runs LOG_LEVEL=debug o7-slack-relay start`,

  check: `Usage: o7-slack-relay check <path>...

Validate q-out-NNN.json and q-answers-NNN.json files. Each path is a file, a qa/ folder,
a run folder or a folder of runs.

Options:
${HELP_OPTION}

Exit codes: 0 every file is valid; 1 a file has problems, or there are no Q&A files in
what was given; 2 a path does not exist, or a usage error.

Examples:
  o7-slack-relay check .7/runs
  o7-slack-relay check .7/runs/fix-login/qa/q-out-002.json`,

  doctor: `Usage: o7-slack-relay doctor

Check the setup against Slack: the tokens, the bot's scopes, every batch channel and
RELAY_ESCALATE_TO, with a fix for each failure. It opens no Socket Mode connection, so it
is safe beside a running relay; when every check passes, the running relay posts the
batches Slack had refused again.

Options:
${HELP_OPTION}

Exit codes: 0 every check passed; 1 a check failed; 2 the configuration is incomplete
or wrong, or a usage error.`,

  nodes: `Usage: o7-slack-relay nodes

Shared mode: list the relays that use RELAY_REDIS_URL, whether each is running, its last
heartbeat and how many batches it has open.

Options:
${HELP_OPTION}

Exit codes: 0 listed; 2 RELAY_REDIS_URL is not set, or Redis cannot be used.`,

  audit: `Usage: o7-slack-relay audit [--run RUN] [--user U…] [--since DURATION] [--json]

Print the decisions the relay recorded, oldest first: each batch answered, cancelled,
answered in another tool or undone, with who (their Slack user ID, and their display name
when Slack gave it within a second), how (message, hand-off, escalation, reminder, digest,
approve-all, elsewhere, undo) and through which relay. A
decision held for Undo is recorded once written. The log is RELAY_AUDIT_LOG, else
audit.jsonl in RELAY_STATE_DIR; in shared mode each relay keeps its own batches' decisions.

Options:
  --run RUN               only this run (its folder, or its name)
  --user U…               only decisions of this Slack user ID
  --since DURATION        only the last DURATION (${DURATION_FORMAT})
  --json                  one JSON object per line, as stored
${HELP_OPTION}

Exit codes: 0 printed; 1 the log cannot be read; 2 a usage error.`,

  preview: `Usage: o7-slack-relay preview <q-out file>

Print the messages the relay posts first for a q-out file: on stdout one JSON array of
{ "text", "blocks" } messages, the channel message first, then its thread replies; on
stderr a Block Kit Builder link for each.

Options:
${HELP_OPTION}

Exit codes: 0 shown; 1 the file is malformed, or one the relay will not read; 2 the path
is not a q-out-NNN.json file (missing, a folder, another name), or a usage error.

Examples:
  o7-slack-relay preview .7/runs/fix-login/qa/q-out-001.json
  o7-slack-relay preview q-out-001.json 2>/dev/null | jq '.[0].blocks'`,

  ask: `Usage: o7-slack-relay ask [options] [FILE|-]

Ask the open questions in an agent's final message (FILE, or standard input) in Slack
through the running relay, wait for the answer, and print the message that resumes the
agent. It reads only RELAY_STATE_DIR (or RELAY_URL and RELAY_TOKEN): it hands the questions
to the relay and never connects to Slack itself.

Options:
  --timeout <duration>    give up after this long and withdraw the questions; a duration is
                          ${DURATION_FORMAT}
  --relay <url>           ask the relay on another machine (default RELAY_URL), with the
                          token in RELAY_TOKEN; see docs/remote-relay.md
  --second-attempt        record a malformed envelope in docs/plans/<id>/dispatch-failure.md
  --plan <id>             with --second-attempt: the plan id
  --phase <phase>         with --second-attempt: the phase
${HELP_OPTION}

Exit codes:
${ASK_EXIT_CODE_HELP.map(([code, meaning]) => `  ${code}  ${meaning}`).join('\n')}

Examples:
  o7-slack-relay ask final-message.md
  o7-slack-relay ask --timeout 30m < final-message.md`,

  mcp: MCP_HELP,
  hook: `Usage: o7-slack-relay hook [options]
       o7-slack-relay hook install|uninstall [--user|--project] [--print] [--notify]
                                             [--state-dir <dir> | --relay <url>]

Without an action: a Claude Code command hook. Reads the hook call on standard input, puts
AskUserQuestion (PreToolUse) or the permission prompt (PermissionRequest) to people in Slack
through the running relay, waits, and prints the decision for Claude Code. For a Notification
of idle_prompt it has the relay post a line in the project's channel saying that Claude waits.
With no relay, bad input, no answer in time or when stopped, it prints no decision and one line
on stderr, and Claude Code asks in the terminal. It always exits 0.

install merges the hook entries into ~/.claude/settings.json (--user, the default) or
.claude/settings.local.json (--project), keeping every other setting and writing a backup;
uninstall removes exactly those entries. --print shows them and changes nothing.

Options:
  --wait <duration>       how long to wait for Slack (default 590s, under Claude Code's 600 s
                          hook timeout); a duration is ${DURATION_FORMAT}
  --state-dir <dir>       the relay's state folder (default RELAY_STATE_DIR, else .7/slack-relay)
  --relay <url>           ask the relay on another machine instead (default RELAY_URL), with
                          the token in RELAY_TOKEN; see docs/remote-relay.md
  --user, --project       install: which settings file
  --print                 install: print the entries instead of writing them
  --notify                install: also the Notification hook for idle_prompt
${HELP_OPTION}

See docs/claude-code.md.`,
};
