/** Serialises writes of one file: at most one in flight, later requests share one follow-up. */
export interface CoalescingWriter {
  /** Asks for a write; resolves once a write that started after this call is durable. */
  request(): Promise<void>;
  /** Resolves when no write is in flight or queued (failures are the requesters' to see). */
  idle(): Promise<void>;
}

interface Waiters {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Wraps `write`, which must write the state as it is when called. A request during a write
 * cannot be served by it (its snapshot is older), so all such requests wait for the single
 * next write; a burst of N requests costs at most two writes, not N.
 */
export function createCoalescingWriter(write: () => Promise<void>): CoalescingWriter {
  let inFlight: Promise<void> | undefined;
  let queued: Waiters | undefined;

  const start = (): Promise<void> => {
    // async wrapper: a synchronous throw in `write` becomes a rejection like any other failure
    const current = (async () => write())();
    inFlight = current;
    current.then(finish, finish);
    return current;
  };

  const finish = (): void => {
    inFlight = undefined;
    const waiters = queued;
    queued = undefined;
    if (waiters) start().then(waiters.resolve, waiters.reject);
  };

  return {
    request() {
      if (!inFlight) return start();
      queued ??= createWaiters();
      return queued.promise;
    },
    async idle() {
      while (inFlight) await inFlight.catch(() => undefined);
    },
  };
}

function createWaiters(): Waiters {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
