import { within } from '../slack/access/lookup-budget.js';

/** A person's display name for the audit log, looked up once in a while and never waited on long. */
export interface AuditNames {
  /** The display name of Slack user `id`, or undefined when Slack does not say it in time. */
  of(id: string): Promise<string | undefined>;
}

/** How long a decision's audit line waits for a name Slack has not given yet. */
const WAIT_MS = 1000;
/** How long a name is kept before it is asked again (people rename themselves). */
const KEEP_MS = 3_600_000;

/**
 * Names through `lookup` (Slack's `users.info`), each kept for an hour. Decisions made at once
 * by one person (Approve all) share one lookup. A lookup that fails or takes longer than a
 * second gives no name, and is tried again on the next decision: the audit line then carries
 * the user id alone, as it always does.
 */
export function createAuditNames(deps: {
  lookup: (id: string) => Promise<string | undefined>;
  now?: () => number;
  waitMs?: number;
}): AuditNames {
  const now = deps.now ?? Date.now;
  const known = new Map<string, { name: string; at: number }>();
  const asking = new Map<string, Promise<string | undefined>>();
  const ask = (id: string) => {
    let asked = asking.get(id);
    if (!asked) {
      asked = deps.lookup(id).then(
        (name) => {
          if (name) known.set(id, { name, at: now() });
          return name;
        },
        () => undefined,
      );
      asking.set(id, asked);
      void asked.finally(() => asking.delete(id));
    }
    return asked;
  };
  return {
    async of(id) {
      const kept = known.get(id);
      if (kept && now() - kept.at < KEEP_MS) return kept.name;
      return (await within(ask(id), deps.waitMs ?? WAIT_MS)) ?? kept?.name;
    },
  };
}
