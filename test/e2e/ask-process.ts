// `o7-slack-relay ask` as a real process, for the end-to-end tests of `ask`.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { type RelayProcess, spawnRelay } from '../support/spawn-relay.js';
import { waitFor } from '../support/wait.js';

/** Runs `o7-slack-relay ask <args>` as a real process, the message piped to its stdin. */
export function spawnAsk(
  stateDir: string,
  cwd: string,
  message: string,
  args: string[] = [],
): RelayProcess {
  return spawnRelay(['ask', ...args], { env: { RELAY_STATE_DIR: stateDir }, cwd, stdin: message });
}

/** Waits for the process to end; its exit code. */
export async function exitCodeOf(proc: RelayProcess): Promise<number | null> {
  const { code } = await proc.exited;
  return code;
}

/** The only folder under `<stateDir>/asks`, once `ask` has made it. */
export async function askDir(stateDir: string): Promise<string> {
  const root = path.join(stateDir, 'asks');
  const [only] = await waitFor(async () => {
    const names = await readdir(root).catch(() => []);
    return names.length === 1 ? names : undefined;
  }, 'the ask folder');
  return path.join(root, only as string);
}
