/** Tasks run one at a time per key, in call order; tasks of different keys run freely. */
export interface KeyedLock {
  /** Runs `task` once every task called before it with `key` has settled; gives its result. */
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
}

/**
 * A lock per key (a run folder for the queue, a batch for the Redis store), held in memory:
 * a key's tasks are chained, and a key with none waiting is forgotten.
 */
export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(key, task) {
      const previous = tails.get(key) ?? Promise.resolve();
      const next = previous.then(task, task);
      const tail = next.catch(() => undefined);
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return next;
    },
  };
}
