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
  return new Writer(write);
}

/**
 * A class rather than closures: the file store keeps one writer per run, and with 10,000 open
 * runs four closures and their scope each were 3 MB of heap that every full GC went through.
 */
class Writer implements CoalescingWriter {
  private inFlight: Promise<void> | undefined;
  private queued: Waiters | undefined;

  constructor(private readonly write: () => Promise<void>) {}

  request(): Promise<void> {
    if (!this.inFlight) return this.start();
    this.queued ??= createWaiters();
    return this.queued.promise;
  }

  async idle(): Promise<void> {
    while (this.inFlight) await this.inFlight.catch(() => undefined);
  }

  private start(): Promise<void> {
    // async wrapper: a synchronous throw in `write` becomes a rejection like any other failure
    const current = (async () => this.write())();
    this.inFlight = current;
    const finish = () => this.finish();
    current.then(finish, finish);
    return current;
  }

  private finish(): void {
    this.inFlight = undefined;
    const waiters = this.queued;
    this.queued = undefined;
    if (waiters) this.start().then(waiters.resolve, waiters.reject);
  }
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
