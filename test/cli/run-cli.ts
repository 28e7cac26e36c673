import { spawnRelay } from '../support/spawn-relay.js';

/** Runs the CLI as a real process to its end: its exit code and what it wrote. */
export async function runCli(args: string[], env: Record<string, string>, cwd: string) {
  const proc = spawnRelay(args, { env, cwd });
  const { code } = await proc.exited;
  return { code, out: proc.stdout(), err: proc.stderr() };
}
