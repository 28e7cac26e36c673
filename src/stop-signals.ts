/** The signals that ask a command to stop cleanly: `kill`, `docker stop`, systemd; Ctrl-C. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Why a start or a run was given up: SIGINT or SIGTERM asked the relay to stop. */
export class StopRequested extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`stopped by ${signal}`);
    this.name = 'StopRequested';
  }
}

/**
 * What stopped a wait, in a word or two for a message ("Stopped by SIGTERM"): the signal of a
 * {@link StopRequested}, or whatever else the abort was given as its reason.
 */
export const stopReason = (reason: unknown): string =>
  reason instanceof StopRequested ? reason.signal : String(reason ?? 'an abort');

/**
 * SIGINT and SIGTERM (and any other of `names`) as an AbortSignal, whose reason is a
 * {@link StopRequested}. Installed
 * first by a command that stops cleanly: node kills a process that has no handler for them
 * (exit 130 or 143, nothing closed), and in a container, where node is PID 1, ignores them
 * until the stop times out. After the first one node's own handling is back, so a second one
 * ends a stop that hangs; `close` does the same once the command is done.
 */
export function stopOnSignals(names: readonly NodeJS.Signals[] = STOP_SIGNALS): {
  signal: AbortSignal;
  close(): void;
} {
  const controller = new AbortController();
  const close = () => {
    for (const name of names) process.off(name, stop);
  };
  const stop = (signal: NodeJS.Signals) => {
    close();
    controller.abort(new StopRequested(signal));
  };
  for (const name of names) process.on(name, stop);
  return { signal: controller.signal, close };
}

/**
 * `work`, or as soon as `signal` aborts its reason: for a step of the start that cannot be
 * cancelled itself (a request under way, a connection being made), whose outcome no longer
 * matters once the relay stops. What it opened is closed by whoever opened it.
 */
export function unlessStopped<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function pauseUnlessStopped(ms: number, signal: AbortSignal | undefined): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const pause = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return unlessStopped(pause, signal).finally(() => clearTimeout(timer));
}
