// Claude Code itself (the real CLI under tmux, offline against the model stand-in) calling the
// relay's MCP tool: it starts `o7-slack-relay mcp` from its --mcp-config, the model asks for
// request_approval, the relay posts it to the Slack stand-in, a person approves, and what they
// chose reaches the model as the tool_result.
import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import { type ClaudeSession, claudeCli, startClaude } from '../support/claude-under-tmux.js';
import { resultText, startModelStandin, toolResults } from '../support/model-standin.js';
import { needs } from '../support/preconditions.js';
import { NODE_LOADER_ARGS, projectModule } from '../support/project-paths.js';
import { ALICE } from '../support/relay-harness.js';
import { makeTempDir } from '../support/temp-dir.js';
import { askMessage, choose, pressSubmit, relayStarter } from './relay-steps.js';

const TOOL = 'mcp__slack-relay__request_approval';
const ACTION = 'Run the database migration on staging';

describe('Claude Code calls the relay’s MCP tools (the real CLI)', needs(claudeCli()), () => {
  const startRelay = relayStarter();

  test('request_approval, approved in Slack, reaches the model as the tool result (socket mode)', async (t: TestContext) => {
    const h = await startRelay({ mode: 'socket' });
    const model = await startModelStandin([
      // Claude Code connects MCP servers while the session starts: a model that finds the
      // server still connecting waits for it with Claude Code's own tool, as the error says
      { toolUse: { name: 'WaitForMcpServers', input: {} } },
      { toolUse: { name: TOOL, input: { action: ACTION, details: 'Adds the `plan` column.' } } },
      { text: 'Migrated.' },
    ]);
    const { dir, cleanup } = await makeTempDir('o7-claude-mcp-');
    let claude: ClaudeSession | undefined;
    // t.after runs hooks in the order they were added: Claude Code first, then its home
    t.after(async () => {
      await claude?.stop();
      await cleanup();
      await model.close();
    });
    claude = await startClaude({
      root: dir,
      project: `${dir}/proj`,
      modelUrl: model.url,
      // the tool is allowed, so Claude Code calls it without a dialog
      settings: { permissions: { allow: [TOOL] } },
      prompt: 'migrate staging',
      mcpServers: {
        'slack-relay': {
          command: process.execPath,
          args: [...NODE_LOADER_ARGS, projectModule('src/main'), 'mcp'],
          env: { RELAY_STATE_DIR: h.config.stateDir },
        },
      },
    });

    const waited = await model.turnRequest(1);
    const offered = ((waited.body?.tools as { name?: string }[] | undefined) ?? []).map(
      (x) => x.name,
    );
    assert.ok(offered.includes(TOOL), `the model is offered the tool: ${offered.join(' ')}`);
    assert.ok(offered.includes('mcp__slack-relay__ask_user'));
    const posted = await askMessage(h.slack);
    assert.ok(JSON.stringify(posted.blocks).includes(ACTION), 'the action is the question');
    await choose(h.slack, posted.ts, 0, [0]); // Approve
    await pressSubmit(h.slack, posted.ts);
    const next = await model.turnRequest(2);
    // Claude Code hands the model the tool's structuredContent, not its text
    assert.deepEqual(JSON.parse(resultText(toolResults(next).at(-1))), {
      approved: true,
      choice: 'Approve',
      by: ALICE,
    });
  });
});
