import type { webApi } from '@slack/bolt';

type WebClient = webApi.WebClient;

import type { Logger } from 'pino';
import { slackErrorCode } from '../presenting/slack-errors.js';
import type { GroupMembers } from './allow-list.js';

/** How often members are fetched again, and the least time between refreshes on a miss. */
const GROUP_REFRESH_DEFAULTS = { refreshMs: 5 * 60_000, missRefreshMs: 60_000 } as const;

/** Options of {@link createGroupMembers}. */
export interface GroupMembersDeps {
  client: WebClient;
  groups: readonly string[];
  log: Logger;
  /** how often every group is fetched again */
  refreshMs?: number;
  /** the least time between two refreshes started because someone was not found */
  missRefreshMs?: number;
  /** the clock, in milliseconds */
  now?: () => number;
}

/** The members of the allow list's user groups, kept fresh from Slack. */
export interface GroupMemberSource {
  /** Members by group as last fetched (a group never fetched has no entry). */
  current(): GroupMembers;
  /**
   * Someone was not found: fetch again unless that was done recently, waiting at most
   * `waitMs` (Slack's 3-second ack deadline still has to be met).
   */
  refreshOnMiss(waitMs: number): Promise<void>;
  /** First fetch, then every `refreshMs`; resolves once the first fetch is done. */
  start(): Promise<void>;
  /** Stops the periodic refresh. */
  stop(): void;
}

/**
 * Resolves user groups to their members through `usergroups.users.list`. A failed fetch keeps
 * the members last known for that group and logs a warning, so a Slack hiccup never locks
 * people out (nor lets anyone in who was not a member before).
 */
export function createGroupMembers(deps: GroupMembersDeps): GroupMemberSource {
  const { client, groups, log } = deps;
  const refreshMs = deps.refreshMs ?? GROUP_REFRESH_DEFAULTS.refreshMs;
  const missRefreshMs = deps.missRefreshMs ?? GROUP_REFRESH_DEFAULTS.missRefreshMs;
  const now = deps.now ?? Date.now;
  const members = new Map<string, ReadonlySet<string>>();
  let inFlight: Promise<void> | undefined;
  let lastStarted = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function fetchGroup(group: string): Promise<void> {
    try {
      const res = await client.usergroups.users.list({ usergroup: group });
      members.set(group, new Set(res.users ?? []));
    } catch (err) {
      const code = slackErrorCode(err);
      log.warn(
        { err, group, code, knownMembers: members.get(group)?.size ?? 0 },
        `could not read the members of user group ${group} from RELAY_ALLOWED_USERS; keeping the last known ones. ${hintFor(code)}`,
      );
    }
  }

  function refresh(): Promise<void> {
    if (inFlight) return inFlight;
    lastStarted = now();
    inFlight = (async () => {
      for (const group of groups) {
        if (stopped) return;
        await fetchGroup(group);
      }
    })().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  return {
    current: () => members,

    async refreshOnMiss(waitMs) {
      if (groups.length === 0 || stopped) return;
      if (!inFlight && now() - lastStarted < missRefreshMs) return;
      let timeout: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<void>((resolve) => {
        timeout = setTimeout(resolve, waitMs);
      });
      try {
        await Promise.race([refresh(), gaveUp]);
      } finally {
        clearTimeout(timeout);
      }
    },

    async start() {
      if (groups.length === 0) return;
      await refresh();
      if (stopped) return;
      timer = setInterval(() => void refresh(), refreshMs);
      timer.unref();
    },

    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
    },
  };
}

function hintFor(code: string | undefined): string {
  switch (code) {
    case 'no_such_subteam':
      return 'Slack knows no such group: check the ID (the group page → ⋯ → Copy group ID).';
    case 'missing_scope':
      return 'The app lacks the usergroups:read scope: update it from manifest.yml and reinstall.';
    default:
      return 'Will try again at the next refresh.';
  }
}
