/** Default least time between two edits of one batch's messages. */
export const UPDATE_EVERY_MS = 250;

/** A pacer tidies its memory of past edits once it holds this many. */
const TIDY_AT = 1000;

/** When an edit of a batch's messages may go out. */
export interface UpdatePacer {
  /**
   * Whether an edit of batch `key` must wait; if so, its run is shown again once it may go
   * (one call however often it is asked).
   */
  holds(key: string, runDir: string): boolean;
  /** The messages of batch `key` were just edited (or an edit was tried). */
  edited(key: string): void;
}

export interface UpdatePacerDeps {
  /** least time between two edits of one batch (0: no pacing) */
  everyMs?: number;
  /** asks for the run to be shown again; called once the wait of a held batch is over */
  showAgain: (runDir: string) => void;
  /** monotonic milliseconds */
  clock?: () => number;
}

/**
 * Spaces out the edits of each batch's messages: once a batch's messages were edited, the
 * next edit waits until `everyMs` later, and every change made meanwhile goes out in that one
 * edit. Showing is level-triggered (a sync shows the record as it is then), so nothing is lost
 * or reordered: the last state always goes out, at most `everyMs` late. Posting a new batch is
 * never held. Slack allows about 50 `chat.update` a minute per workspace; a burst of clicks on
 * one batch costs at most one edit per `everyMs`.
 */
export function createUpdatePacer(deps: UpdatePacerDeps): UpdatePacer {
  const everyMs = deps.everyMs ?? UPDATE_EVERY_MS;
  const clock = deps.clock ?? (() => performance.now());
  /** when each batch's messages were last edited */
  const editedAt = new Map<string, number>();
  /** batches whose run is to be shown again once their wait is over */
  const waiting = new Set<string>();

  function tidy(now: number) {
    for (const [key, at] of editedAt) if (now - at >= everyMs) editedAt.delete(key);
  }

  return {
    holds(key, runDir) {
      const at = editedAt.get(key);
      if (everyMs <= 0 || at === undefined) return false;
      const wait = at + everyMs - clock();
      if (wait <= 0) {
        editedAt.delete(key);
        return false;
      }
      if (!waiting.has(key)) {
        waiting.add(key);
        const timer = setTimeout(() => {
          waiting.delete(key);
          deps.showAgain(runDir);
        }, wait);
        timer.unref();
      }
      return true;
    },

    edited(key) {
      if (everyMs <= 0) return;
      const now = clock();
      editedAt.set(key, now);
      if (editedAt.size >= TIDY_AT) tidy(now);
    },
  };
}
