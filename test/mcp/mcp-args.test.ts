import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readCommandLine } from '../../src/cli/command-line.js';
import { COMMAND_HELP } from '../../src/cli/help-texts.js';

describe('o7-slack-relay mcp command line', () => {
  it('reads --timeout and --progress as durations, progress every 20 s by default', () => {
    assert.deepEqual(readCommandLine(['mcp']), { command: 'mcp', mcp: { progressMs: 20_000 } });
    assert.deepEqual(readCommandLine(['mcp', '--timeout', '30m', '--progress', '5s']), {
      command: 'mcp',
      mcp: { timeoutMs: 1_800_000, progressMs: 5_000 },
    });
  });

  it('refuses a duration it cannot read, naming the option', () => {
    const read = readCommandLine(['mcp', '--progress', 'often']);
    assert.equal(read.command, 'usage-error');
    assert.match(
      read.command === 'usage-error' ? read.message : '',
      /^o7-slack-relay mcp: --progress /,
    );
  });

  it('has a help text that names both tools and the docs', () => {
    assert.deepEqual(readCommandLine(['mcp', '--help']), {
      command: 'help',
      text: COMMAND_HELP.mcp,
    });
    assert.match(COMMAND_HELP.mcp, /ask_user/);
    assert.match(COMMAND_HELP.mcp, /request_approval/);
    assert.match(COMMAND_HELP.mcp, /docs\/mcp\.md/);
  });
});
