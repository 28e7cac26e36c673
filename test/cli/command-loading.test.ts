// Each command loads its own modules (main.ts). Claude Code starts `hook` for every
// permission prompt, and waits for it: it must not load the relay's Slack, Redis, MCP or
// markdown code. Shown by the packages the real process resolved, not by a timing.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { permissionRequest } from '../core/claude-code/samples.js';
import { COMMAND, REPO } from '../support/project-paths.js';
import { spawnRelay } from '../support/spawn-relay.js';
import { makeTempDir } from '../support/temp-dir.js';

// a plain module of the sources, as node loads it before any loader (no build copies it)
const RECORDER = path.join(REPO, 'test', 'support', 'record-imports.mjs');

/** Packages the hook and the help have no use for. */
const HEAVY = [
  '@slack/bolt',
  '@slack/web-api',
  'redis',
  '@modelcontextprotocol/sdk',
  'markdown-it',
];

/**
 * The npm packages `o7-slack-relay <args>` resolved (and every module's URL), run to its end
 * with `stdin`; through main.js, or `program`.
 */
async function packagesLoadedBy(t: TestContext, args: string[], stdin: string, program?: string) {
  const { dir, cleanup } = await makeTempDir('o7-loading-');
  t.after(cleanup);
  const file = path.join(dir, 'imports.txt');
  const proc = spawnRelay(args, {
    env: { O7_RECORD_IMPORTS: file, RELAY_STATE_DIR: path.join(dir, 'state'), HOME: dir },
    cwd: dir,
    stdin,
    nodeFlags: ['--import', RECORDER],
    ...(program !== undefined ? { program } : {}),
  });
  const { code } = await proc.exited;
  const urls = (await readFile(file, 'utf8')).split('\n').filter((url) => url !== '');
  const names = urls.flatMap((url) => {
    const match = /\/node_modules\/(@[^/]+\/[^/]+|[^/@][^/]*)\//.exec(url);
    return match?.[1] ? [match[1]] : [];
  });
  return { code, packages: new Set(names), urls, stderr: proc.stderr() };
}

/** A permission prompt as Claude Code writes it. */
const PERMISSION_CALL = JSON.stringify(permissionRequest);

describe('what each command loads', () => {
  test('hook loads zod for its input, and none of Bolt, Redis, the MCP SDK or markdown-it', async (t) => {
    const { code, packages, stderr } = await packagesLoadedBy(t, ['hook'], PERMISSION_CALL);
    assert.equal(code, 0);
    assert.match(stderr, /no relay is running/, 'it read the call and looked for the relay');
    assert.ok(packages.has('zod'), [...packages].join(' '));
    assert.deepEqual(
      HEAVY.filter((name) => packages.has(name)),
      [],
    );
  });

  test('hook through the o7-slack-relay command runs its one-file bundle: no module of dist/src or of a package is loaded, and it does the same', async (t) => {
    const { code, urls, stderr } = await packagesLoadedBy(t, ['hook'], PERMISSION_CALL, COMMAND);
    assert.equal(code, 0);
    assert.match(stderr, /no relay is running/, 'it read the call and looked for the relay');
    const files = urls.filter(
      (url) => url.startsWith('file:') && url !== pathToFileURL(RECORDER).href,
    );
    assert.deepEqual(files, [pathToFileURL(COMMAND).href], 'only the command itself, as a module');
  });

  test('--help loads none of them either', async (t) => {
    const { code, packages } = await packagesLoadedBy(t, ['--help'], '');
    assert.equal(code, 0);
    assert.deepEqual(
      HEAVY.filter((name) => packages.has(name)),
      [],
    );
  });

  test('mcp loads the MCP SDK, as the command that serves it', async (t) => {
    const { code, packages } = await packagesLoadedBy(t, ['mcp'], '');
    assert.equal(code, 0);
    assert.ok(packages.has('@modelcontextprotocol/sdk'), [...packages].join(' '));
  });
});
