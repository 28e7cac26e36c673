import type { SlackAvailability } from '../ops/slack-reachability.js';

export interface SlackWaitDeps {
  /** Slack's availability; without it no run waits on Slack (each uses its own back-off). */
  slack?: SlackAvailability;
  /** Marks a run for a sync. */
  schedule: (runDir: string) => void;
  /** Whether a run is being synced or waits for its turn. */
  busy: (runDir: string) => boolean;
  /** Whether any run is being synced or waits for its turn: its calls will tell about Slack. */
  working: () => boolean;
}

/**
 * Runs that could not show their batches because Slack is down, waiting on Slack to answer
 * again instead of each on its own back-off (which grows through an outage, so that the first
 * post came up to a minute after Slack was back). When the probe gets an answer, the run that
 * has waited longest is tried, one at a time (Slack may answer the probe and still fail
 * posts: then that run keeps its place); once a call of the relay's goes through, every
 * waiting run is synced, in the order they began to wait.
 */
export function createSlackWait(deps: SlackWaitDeps) {
  let waiting = new Set<string>();
  /** the run tried on the probe's word, while it is being synced */
  let trying: string | undefined;
  const stop = deps.slack?.follow({
    answering() {
      if (trying !== undefined && deps.busy(trying)) return true;
      trying = waiting.values().next().value;
      // nothing waits: a sync under way (a client still retrying) will tell how Slack is
      if (trying === undefined) return deps.working();
      waiting.delete(trying);
      deps.schedule(trying);
      return true;
    },
    back() {
      trying = undefined;
      const runs = [...waiting];
      waiting.clear();
      for (const runDir of runs) deps.schedule(runDir);
    },
  });

  return {
    /**
     * Makes a run whose show failed for a reason that passes by itself wait for Slack, when
     * Slack is down now; false when it is not (the run uses its own back-off).
     */
    hold(runDir: string): boolean {
      if (!deps.slack || deps.slack.reachable) return false;
      if (trying === runDir) {
        // tried first and failed again: it keeps its place, first
        trying = undefined;
        waiting = new Set([runDir, ...waiting]);
      } else waiting.add(runDir);
      return true;
    },
    /** How many runs wait for Slack. */
    get size(): number {
      return waiting.size;
    },
    close(): void {
      stop?.();
      waiting.clear();
    },
  };
}

export type SlackWait = ReturnType<typeof createSlackWait>;
