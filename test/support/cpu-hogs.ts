import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

/** Processes keeping cores busy beside a test, as other work on a machine would. */
export interface CpuHogs {
  /** Kills them and waits until they are gone; harmless when called again. */
  stop(): Promise<void>;
}

/** Starts `count` processes that each spin a core (`while (true) {}`) until stopped. */
export function startCpuHogs(count: number): CpuHogs {
  const hogs: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'while (true) {}'], { stdio: 'ignore' }),
  );
  return {
    async stop() {
      await Promise.all(
        hogs.map(async (hog) => {
          if (hog.exitCode !== null || hog.signalCode !== null) return;
          const exited = once(hog, 'exit');
          hog.kill('SIGKILL');
          await exited;
        }),
      );
    },
  };
}
