/** Runs looked at again at a set time: when a held decision's undo window ends. */
export interface WakeUps {
  /** Schedules the run at `at` (at once when that has passed); the earliest time asked wins. */
  at(runDir: string, at: Date): void;
  /** Forgets every wake-up. */
  close(): void;
}

/**
 * One timer per run, for the earliest time asked: a run has one batch in front of people, so
 * one held decision at a time. A timer that fires forgets its time, so a run found not due yet
 * (a clock that moved) is woken again when asked.
 */
export function createWakeUps(deps: {
  schedule: (runDir: string) => void;
  now: () => Date;
}): WakeUps {
  const timers = new Map<string, { due: number; timer: NodeJS.Timeout }>();
  return {
    at(runDir, at) {
      const due = at.getTime();
      const known = timers.get(runDir);
      if (known && known.due <= due) return;
      if (known) clearTimeout(known.timer);
      const timer = setTimeout(
        () => {
          timers.delete(runDir);
          deps.schedule(runDir);
        },
        Math.max(0, due - deps.now().getTime()),
      );
      timer.unref();
      timers.set(runDir, { due, timer });
    },
    close() {
      for (const { timer } of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
