import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mcpToolName, toolPreview } from '../../../src/core/claude-code/tool-preview.js';

describe('toolPreview', () => {
  it('shows a Bash command as code, its description above it', () => {
    assert.equal(
      toolPreview('Bash', { command: 'rm -rf build', description: 'Clean the build' }),
      'Clean the build\n\n```sh\nrm -rf build\n```',
    );
  });

  it('fences a command holding backticks with a longer fence', () => {
    assert.equal(toolPreview('Bash', { command: 'echo ```x```' }), '````sh\necho ```x```\n````');
  });

  it('shows an Edit as a diff of its file', () => {
    const preview = toolPreview('Edit', {
      file_path: '/p/a.ts',
      old_string: 'a\nb',
      new_string: 'c',
    });
    assert.match(preview, /^Edit ` \/p\/a\.ts `/);
    assert.match(
      preview,
      /```diff\n--- \/p\/a\.ts\n\+\+\+ \/p\/a\.ts\n@@ edit 1 of 1 @@\n-a\n-b\n\+c\n```/,
    );
  });

  it('shows every edit of a MultiEdit, and one that replaces every occurrence says so', () => {
    const preview = toolPreview('MultiEdit', {
      file_path: '/p/a.ts',
      edits: [
        { old_string: 'x', new_string: 'y' },
        { old_string: 'p', new_string: 'q', replace_all: true },
      ],
    });
    assert.match(
      preview,
      /@@ edit 1 of 2 @@\n-x\n\+y\n@@ edit 2 of 2, every occurrence @@\n-p\n\+q/,
    );
  });

  it("shows a Write's content and a WebFetch's URL in code, so no link is live", () => {
    assert.equal(
      toolPreview('Write', { file_path: '/p/n.md', content: 'hi' }),
      'Write ` /p/n.md `:\n\n```\nhi\n```',
    );
    assert.equal(
      toolPreview('WebFetch', { url: 'https://example.com/a', prompt: 'summarise' }),
      'Fetch ` https://example.com/a `\n\nand ask of it: summarise',
    );
  });

  it("names an MCP tool's server and tool and shows its arguments", () => {
    assert.deepEqual(mcpToolName('mcp__o7__ask_user'), { server: 'o7', tool: 'ask_user' });
    assert.equal(
      toolPreview('mcp__db__query', { sql: 'select 1' }),
      'MCP server ` db `, tool ` query `, with:\n\n```json\n{\n  "sql": "select 1"\n}\n```',
    );
  });

  it("shows any other tool's input as JSON", () => {
    assert.equal(
      toolPreview('Read', { file_path: '/etc/hosts' }),
      '```json\n{\n  "file_path": "/etc/hosts"\n}\n```',
    );
  });
});
