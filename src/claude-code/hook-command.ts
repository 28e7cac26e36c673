import { config as loadDotenv } from 'dotenv';
import type { HookCommandArgs } from '../cli/command-line.js';
import { readStdin } from '../read-stdin.js';
import { stopOnSignals } from '../stop-signals.js';
import { watchParent } from './parent-watch.js';
import { runHook } from './run-hook.js';

/**
 * `o7-slack-relay hook`: answering Claude Code it exits 0 whatever happens (Claude Code reads
 * 2 as "block the tool"); SIGTERM (the terminal answered, or Esc) and Claude Code going away
 * stop the wait, and the batch is withdrawn from Slack. Run by main.ts, and by the hook's
 * one-file bundle (hook-main.ts) that the o7-slack-relay command starts for `hook`.
 */
export async function runHookCommand(
  hook: HookCommandArgs,
  io: { out: (line: string) => void; err: (line: string) => void },
): Promise<number> {
  if (hook.action === 'mistake') {
    io.err(`${hook.message}; no decision (see o7-slack-relay help hook).`);
    return 0;
  }
  loadDotenv({ quiet: true });
  if (hook.action !== 'answer') {
    const { runHookInstall } = await import('./install-hook.js');
    return runHookInstall(hook, { env: process.env, cwd: process.cwd(), ...io });
  }
  const stopping = stopOnSignals(['SIGINT', 'SIGTERM', 'SIGHUP']);
  const parentGone = new AbortController();
  const unwatch = watchParent(() => parentGone.abort('Claude Code exited'));
  const signal = AbortSignal.any([stopping.signal, parentGone.signal]);
  try {
    await runHook(hook, {
      env: process.env,
      cwd: process.cwd(),
      readStdin: () => readStdin(() => undefined, signal),
      ...io,
      signal,
    });
  } finally {
    unwatch();
    stopping.close();
  }
  return 0;
}
