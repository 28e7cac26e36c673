import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CommandLine, readCommandLine } from '../../src/cli/command-line.js';

/** `ask`'s arguments as the command line reads them. */
const readAsk = (...argv: string[]): CommandLine => readCommandLine(['ask', ...argv]);

/** The message of a usage error, or a failed assertion. */
function mistakeOf(line: CommandLine): string {
  assert.equal(line.command, 'usage-error', JSON.stringify(line));
  return line.command === 'usage-error' ? line.message : '';
}

describe('ask arguments', () => {
  it('read stdin by default, or one FILE', () => {
    assert.deepEqual(readAsk(), { command: 'ask', ask: { input: '-' } });
    assert.deepEqual(readAsk('-'), { command: 'ask', ask: { input: '-' } });
    assert.deepEqual(readAsk('msg.md'), { command: 'ask', ask: { input: 'msg.md' } });
    assert.deepEqual(readAsk('--', '--odd-name.md'), {
      command: 'ask',
      ask: { input: '--odd-name.md' },
    });
    assert.match(mistakeOf(readAsk('a.md', 'b.md')), /takes at most one FILE/);
  });

  it('read --timeout spaced or with =, in the one duration grammar', () => {
    assert.deepEqual(readAsk('--timeout', '15m'), {
      command: 'ask',
      ask: { input: '-', timeout: { ms: 900_000, text: '15m' } },
    });
    assert.deepEqual(readAsk('--timeout=90', 'f.md'), {
      command: 'ask',
      ask: { input: 'f.md', timeout: { ms: 90_000, text: '90' } },
    });
    assert.match(mistakeOf(readAsk('--timeout')), /^o7-slack-relay ask: --timeout needs a value$/);
    assert.match(mistakeOf(readAsk('--timeout', '--plan', 'x')), /--timeout needs a value/);
    assert.match(
      mistakeOf(readAsk('--timeout', 'soon')),
      /--timeout expects a duration, a number of seconds \(90\) or a number and a unit: ms, s, m, h \(15m, 1\.5h\); found "soon"/,
    );
  });

  it('need --plan and --phase with --second-attempt, and only with it', () => {
    assert.deepEqual(readAsk('--second-attempt', '--plan', '2026-05-01-x', '--phase', 'design'), {
      command: 'ask',
      ask: { input: '-', secondAttempt: { planId: '2026-05-01-x', phase: 'design' } },
    });
    const refusals: [string[], RegExp][] = [
      [['--second-attempt'], /needs --plan <id> and --phase <phase>/],
      [['--plan', 'x', '--phase', 'design'], /go with --second-attempt/],
      [['--second-attempt', '--plan', 'a/b', '--phase', 'design'], /expected a plan id/],
      [['--second-attempt', '--plan', 'x', '--phase', ' '], /--phase needs a phase name/],
      [['--second-attempt=yes'], /--second-attempt takes no value/],
      [['--verbose'], /^o7-slack-relay ask: unknown option --verbose$/],
    ];
    for (const [argv, message] of refusals) assert.match(mistakeOf(readAsk(...argv)), message);
  });

  it('a mistake comes with ask’s help, exit codes included', () => {
    const line = readAsk('--verbose');
    assert.ok(line.command === 'usage-error');
    assert.match(line.usage, /^Usage: o7-slack-relay ask \[options\] \[FILE\|-\]/);
    assert.match(
      line.usage,
      /\n {2}7 {2}no relay is running for RELAY_STATE_DIR, or the --relay one refused\n/,
    );
  });
});
