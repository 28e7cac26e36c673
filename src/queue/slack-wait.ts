import type { SlackAvailability } from '../ops/slack-reachability.js';

/** The runs waiting for Slack to answer again. */
export interface SlackWait {
  /**
   * Makes a run whose show failed for a reason that passes by itself wait for Slack, when
   * Slack is down now; false when it is not (the run uses its own back-off).
   */
  hold(runDir: string): boolean;
  /** How many runs wait for Slack. */
  readonly size: number;
  /** Stops following Slack's availability; no run waits any more. */
  close(): void;
}

export interface SlackWaitDeps {
  /** Slack's availability; without it no run waits on Slack (each uses its own back-off). */
  slack?: SlackAvailability;
  /** Marks a run for a sync. */
  schedule: (runDir: string) => void;
  /** Whether a run is being synced or waits for its turn. */
  busy: (runDir: string) => boolean;
  /** Whether any run is being synced or waits for its turn: its calls will tell about Slack. */
  working: () => boolean;
  /** The run's next wait after another failure (its back-off, which grows with each). */
  backOff: (runDir: string) => number;
  /** The clock, in ms. */
  now: () => number;
}

/**
 * Runs that could not show their batches because Slack is down, waiting on Slack to answer
 * again instead of each on its own back-off (which grows through an outage, so that the first
 * post came up to a minute after Slack was back). When the probe gets an answer, the run that
 * has waited longest is tried, one at a time (Slack may answer the probe and still fail
 * posts: that run keeps its place, and is not tried again before its own back-off is over);
 * once a call of the relay's goes through, every waiting run is synced, in the order they
 * began to wait.
 */
export function createSlackWait(deps: SlackWaitDeps): SlackWait {
  /** each waiting run, in the order it began to wait, with when the probe may try it */
  let waiting = new Map<string, number>();
  /** the run tried on the probe's word, while it is being synced */
  let trying: string | undefined;
  const stop = deps.slack?.follow({
    answering() {
      if (trying !== undefined && deps.busy(trying)) return true;
      trying = undefined;
      if (waiting.size === 0) {
        // nothing waits: a sync under way (a client still retrying) will tell how Slack is
        return deps.working();
      }
      const at = deps.now();
      for (const [runDir, notBefore] of waiting) {
        if (notBefore > at) continue;
        trying = runDir;
        waiting.delete(runDir);
        deps.schedule(runDir);
        break;
      }
      return true;
    },
    back() {
      trying = undefined;
      const runs = [...waiting.keys()];
      waiting.clear();
      for (const runDir of runs) deps.schedule(runDir);
    },
  });

  return {
    hold(runDir) {
      if (!deps.slack || deps.slack.reachable) return false;
      const notBefore = deps.now() + deps.backOff(runDir);
      if (trying === runDir) {
        // tried first and failed again: it keeps its place, first
        trying = undefined;
        waiting = new Map([[runDir, notBefore], ...waiting]);
      } else waiting.set(runDir, notBefore); // a run waiting already keeps its place
      return true;
    },
    get size() {
      return waiting.size;
    },
    close() {
      stop?.();
      waiting.clear();
    },
  };
}
