import { readFileSync } from 'node:fs';

/** Shells Claude Code runs a hook's command through; the hook's parent is then one of them. */
const SHELLS = new Set(['sh', 'dash', 'bash', 'zsh']);

/** The name and parent pid in `/proc/<pid>/stat`; undefined once the process is gone. */
export function readProcStat(pid: number): { name: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    return { name: stat.slice(stat.indexOf('(') + 1, close), ppid: Number(fields[1]) };
  } catch {
    return undefined;
  }
}

/** What {@link watchParent} reads of the process tree; tests pass their own. */
export interface ProcessTree {
  ppid: () => number;
  stat: (pid: number) => { name: string; ppid: number } | undefined;
}

const liveTree: ProcessTree = { ppid: () => process.ppid, stat: readProcStat };

/**
 * Calls `onGone` once Claude Code, which started this hook, has exited. Claude Code does not
 * end its hooks when it exits, so a hook waiting for Slack would wait on alone: this polls the
 * parent pid, and the shell's parent when Claude Code ran the command through `sh -c`.
 * Returns a function that stops the watch.
 */
export function watchParent(onGone: () => void, everyMs = 1000, tree = liveTree): () => void {
  const parent = tree.ppid();
  const shell = tree.stat(parent);
  const claude = shell && SHELLS.has(shell.name) ? shell.ppid : undefined;
  const gone = () => {
    if (tree.ppid() !== parent) return true;
    if (claude === undefined) return false;
    const now = tree.stat(parent);
    return now === undefined || now.ppid !== claude;
  };
  const timer = setInterval(() => {
    if (!gone()) return;
    clearInterval(timer);
    onGone();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
