// The real Claude Code CLI (the dev dependency @anthropic-ai/claude-code), interactive, in a
// detached tmux pane with a scratch HOME, offline against the model stand-in: AskUserQuestion
// and permission dialogs exist only in interactive mode, so it needs a pseudo-terminal.
import { execFile, spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { CLAUDE_WAIT_MS } from './model-standin.js';
import { findOnPath, type Need } from './preconditions.js';
import { repoFile } from './project-paths.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);

/** The CLI as npm installed it (its postinstall links the native binary in place). */
export const CLAUDE_BIN = repoFile('node_modules/.bin/claude');

/** Any key works with the stand-in; Claude Code asks once unless its end is approved. */
const API_KEY = 'sk-ant-api03-standin-0123456789abcdefghijKLMNOPQRST';

/** The real CLI runs here: `claude --version` answers (the postinstall ran) and tmux is on PATH. */
export function claudeCli(): Need {
  if (findOnPath('tmux') === undefined) {
    return { missing: 'tmux is not on PATH', fix: 'install it (apt-get install tmux)' };
  }
  const version = spawnSync(CLAUDE_BIN, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return {
    missing:
      version.status === 0
        ? undefined
        : `${CLAUDE_BIN} --version failed (${(version.stderr || version.error?.message || '').trim().split('\n')[0]})`,
    fix: 'run npm install with install scripts on (the package @anthropic-ai/claude-code links its native binary in its postinstall: node node_modules/@anthropic-ai/claude-code/install.cjs)',
  };
}

/** One Claude Code session in tmux. */
export interface ClaudeSession {
  /** the project folder Claude Code runs in (its `cwd`) */
  project: string;
  screen(): Promise<string>;
  /** Waits until the terminal shows `pattern`; the screen then. */
  waitForScreen(pattern: RegExp): Promise<string>;
  keys(...keys: string[]): Promise<void>;
  stop(): Promise<void>;
}

let sessions = 0;

/** Whether process `pid` still runs. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts `claude --settings <file> [--mcp-config <file>] -- <prompt>` in `project` with a HOME of its own under
 * `root` whose `.claude.json` has onboarding done, the project trusted and the key approved.
 */
export async function startClaude(opts: {
  root: string;
  project: string;
  modelUrl: string;
  settings: unknown;
  prompt: string;
  /** MCP servers, as `--mcp-config` takes them (the only ones it uses) */
  mcpServers?: Record<string, unknown>;
  /** more environment for Claude Code */
  env?: Record<string, string>;
}): Promise<ClaudeSession> {
  const home = path.join(opts.root, `home-${++sessions}`);
  await mkdir(home, { recursive: true });
  await mkdir(opts.project, { recursive: true });
  await writeFile(
    path.join(home, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
      projects: { [opts.project]: { hasTrustDialogAccepted: true } },
    }),
  );
  const settingsFile = path.join(home, 'run-settings.json');
  await writeFile(settingsFile, JSON.stringify(opts.settings));
  const mcpFile = path.join(home, 'run-mcp.json');
  if (opts.mcpServers) await writeFile(mcpFile, JSON.stringify({ mcpServers: opts.mcpServers }));
  const env: Record<string, string> = {
    HOME: home,
    PATH: process.env.PATH ?? '',
    TERM: 'xterm-256color',
    ANTHROPIC_BASE_URL: opts.modelUrl,
    ANTHROPIC_API_KEY: API_KEY,
    // nothing but the stand-in: no update checks, downloads, marketplace or telemetry
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_UPDATES: '1',
    DISABLE_INSTALLATION_CHECKS: '1',
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
    ...opts.env,
  };
  const name = `o7-claude-${process.pid}-${sessions}`;
  const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
  const command = [
    'cd',
    quote(opts.project),
    '&&',
    'exec',
    'env',
    '-i',
    ...Object.entries(env).map(([key, value]) => quote(`${key}=${value}`)),
    quote(CLAUDE_BIN),
    '--settings',
    quote(settingsFile),
    ...(opts.mcpServers ? ['--strict-mcp-config', '--mcp-config', quote(mcpFile)] : []),
    '--',
    quote(opts.prompt),
  ].join(' ');
  await run('tmux', ['new-session', '-d', '-s', name, '-x', '200', '-y', '50', command]);
  // the pane runs claude itself (exec): its pid, to wait for its exit when stopping
  const pid = Number(
    (await run('tmux', ['display-message', '-p', '-t', name, '#{pane_pid}'])).stdout.trim(),
  );
  const screen = async () => (await run('tmux', ['capture-pane', '-p', '-t', name])).stdout;
  let last = '';
  return {
    project: opts.project,
    screen,
    async waitForScreen(pattern) {
      try {
        return await waitFor(
          async () => {
            last = await screen().catch(() => last);
            return pattern.test(last) && last;
          },
          `Claude Code's terminal to show ${pattern}`,
          CLAUDE_WAIT_MS,
        );
      } catch (error) {
        throw new Error(`${(error as Error).message}; the terminal showed:\n${last}`);
      }
    },
    async keys(...keys) {
      await run('tmux', ['send-keys', '-t', name, ...keys]);
    },
    async stop() {
      await run('tmux', ['kill-session', '-t', name]).catch(() => undefined);
      // claude writes its session files while it shuts down: its folders are removed after
      await waitFor(() => !isAlive(pid), `Claude Code (pid ${pid}) to exit`, CLAUDE_WAIT_MS);
    },
  };
}
