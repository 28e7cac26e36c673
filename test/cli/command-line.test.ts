import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readCommandLine } from '../../src/cli/command-line.js';
import { COMMAND_HELP, COMMAND_NAMES, OVERVIEW } from '../../src/cli/help-texts.js';

describe('the command line', () => {
  it('runs the relay when no command is given', () => {
    assert.deepEqual(readCommandLine([]), { command: 'start' });
    assert.deepEqual(readCommandLine(['start']), { command: 'start' });
  });

  it('gives the overview for --help, -h and help, and the version for --version and -v', () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      assert.deepEqual(readCommandLine(argv), { command: 'help', text: OVERVIEW });
    }
    assert.deepEqual(readCommandLine(['--version']), { command: 'version' });
    assert.deepEqual(readCommandLine(['-v']), { command: 'version' });
  });

  it("gives each command's help for `help <command>`, `<command> --help` and `-h`", () => {
    for (const name of COMMAND_NAMES) {
      const help = { command: 'help', text: COMMAND_HELP[name] };
      assert.deepEqual(readCommandLine(['help', name]), help, name);
      assert.deepEqual(readCommandLine([name, '--help']), help, name);
      assert.deepEqual(readCommandLine([name, '-h']), help, name);
      assert.match(COMMAND_HELP[name], new RegExp(`^Usage: o7-slack-relay \\[?${name}\\b`));
      assert.match(COMMAND_HELP[name], /\nOptions:\n(.*\n)* {2}-h, --help +show this help\n/);
    }
  });

  it('prefers --help to a mistake beside it, but not after --', () => {
    assert.deepEqual(readCommandLine(['doctor', '--bogus', '--help']), {
      command: 'help',
      text: COMMAND_HELP.doctor,
    });
    assert.deepEqual(readCommandLine(['check', '--', '--help']), {
      command: 'check',
      paths: ['--help'],
    });
  });

  it('reads check paths and the one preview file', () => {
    assert.deepEqual(readCommandLine(['check', 'a', 'b']), { command: 'check', paths: ['a', 'b'] });
    assert.deepEqual(readCommandLine(['preview', 'q-out-001.json']), {
      command: 'preview',
      file: 'q-out-001.json',
    });
  });

  it("reports mistakes with the command's usage (or the overview) for exit code 2", () => {
    const cases: [string[], string, string][] = [
      [['frobnicate'], 'o7-slack-relay: unknown command: frobnicate', OVERVIEW],
      // no command was named, so none is blamed
      [['--bogus'], 'o7-slack-relay: unknown option --bogus', OVERVIEW],
      [['chek', 'a'], 'o7-slack-relay: unknown command: chek (did you mean check?)', OVERVIEW],
      [['Doctor'], 'o7-slack-relay: unknown command: Doctor (did you mean doctor?)', OVERVIEW],
      [['preveiw'], 'o7-slack-relay: unknown command: preveiw (did you mean preview?)', OVERVIEW],
      [['version'], 'o7-slack-relay: unknown command: version (did you mean --version?)', OVERVIEW],
      [['hlep'], 'o7-slack-relay: unknown command: hlep (did you mean help?)', OVERVIEW],
      [['as'], 'o7-slack-relay: unknown command: as (did you mean ask?)', OVERVIEW],
      [['x'], 'o7-slack-relay: unknown command: x', OVERVIEW],
      [
        ['help', 'nodse'],
        'o7-slack-relay help: unknown command: nodse (did you mean nodes?)',
        OVERVIEW,
      ],
      [['--version', 'x'], 'o7-slack-relay: --version takes no arguments', OVERVIEW],
      [['help', 'nope'], 'o7-slack-relay help: unknown command: nope', OVERVIEW],
      [
        ['help', 'check', 'doctor'],
        'o7-slack-relay help: takes one command name (got check doctor)',
        OVERVIEW,
      ],
      [['start', 'now'], 'o7-slack-relay start: takes no arguments (got now)', COMMAND_HELP.start],
      [['doctor', '-x'], 'o7-slack-relay doctor: unknown option -x', COMMAND_HELP.doctor],
      [['check'], 'o7-slack-relay check: needs at least one file or folder', COMMAND_HELP.check],
      [
        ['check', '--strict', 'a'],
        'o7-slack-relay check: unknown option --strict',
        COMMAND_HELP.check,
      ],
      [
        ['preview'],
        'o7-slack-relay preview: needs exactly one q-out-NNN.json file',
        COMMAND_HELP.preview,
      ],
      [
        ['preview', 'a', 'b'],
        'o7-slack-relay preview: needs exactly one q-out-NNN.json file',
        COMMAND_HELP.preview,
      ],
      [
        ['ask', '--constructor'],
        'o7-slack-relay ask: unknown option --constructor',
        COMMAND_HELP.ask,
      ],
      [['mcp', 'x'], 'o7-slack-relay mcp: takes no arguments (got x)', COMMAND_HELP.mcp],
    ];
    for (const [argv, message, usage] of cases) {
      assert.deepEqual(
        readCommandLine(argv),
        { command: 'usage-error', message, usage },
        argv.join(' '),
      );
    }
  });
});
