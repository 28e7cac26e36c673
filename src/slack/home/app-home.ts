import type { webApi } from '@slack/bolt';

type WebClient = webApi.WebClient;

import type { Logger } from 'pino';
import type { BatchRecord } from '../../core/batch/batch-record.js';
import type { QuestionBatch } from '../../core/protocol/questions/question.js';
import { renderHome, selectHomeBatches } from '../../core/slack/views/render-home.js';
import type { StateStore } from '../../store/state-store.js';
import { createHomeDetailSource } from './home-details.js';

/** Default least time between two refreshes of the Home tabs; changes meanwhile merge. */
const HOME_REFRESH_DELAY_MS = 1000;

/**
 * Wait after a first change before a refresh starts, so the changes one action makes (an
 * answer, then the run's next batch) are shown together.
 */
const HOME_SETTLE_MS = 50;

/** How many people's Home tabs are kept up to date; the least recently opened drop out first. */
const MOST_VIEWERS = 500;

/** The Home tab for someone not on the allow list. */
const NOT_ALLOWED_VIEW = {
  type: 'home' as const,
  blocks: [
    {
      type: 'section' as const,
      text: {
        type: 'mrkdwn' as const,
        text: 'Agent questions here are answered by a set group of people, and you are not among them. Ask an admin to add you to `RELAY_ALLOWED_USERS` if you should be.',
      },
    },
  ],
};

/** Options of {@link createAppHome}. */
export interface AppHomeDeps {
  client: WebClient;
  /** read-only: the Home tab lists what the store holds */
  store: Pick<StateStore, 'all'>;
  log: Logger;
  /** the clock ages are measured against */
  now?: () => Date;
  /** least time between two refreshes (default 1 s) */
  refreshDelayMs?: number;
  /** `auth.test`'s `url`: message links are made from it, not asked of Slack one by one */
  workspaceUrl?: string | undefined;
  /** Whether a person may see the batches (the allow list); others get a short note. */
  mayView?: (userId: string) => boolean;
  /** the channel a batch not posted yet is to be posted in, if this relay knows it */
  channelFor?: (record: BatchRecord) => string | undefined;
  /** shared mode: the questions of a batch whose run is on another machine; undefined: here */
  sharedQuestions?: (record: BatchRecord) => Promise<QuestionBatch | undefined> | undefined;
}

/** The App Home tab, kept up to date for the people who opened it. */
export interface AppHome {
  /** Someone opened the Home tab: remember them and publish it for them now. */
  opened(userId: string): Promise<void>;
  /**
   * A batch changed: publish again for everyone who opened it, shortly, and at most once per
   * `refreshDelayMs`.
   */
  refreshSoon(): void;
  /** Stops refreshing; waits for a publish under way. */
  close(): Promise<void>;
}

/**
 * Publishes the Home tab (`views.publish`) for each person who opens it, and again for all of
 * them when batches change. Who opened it is kept in memory only: after a restart a person's
 * tab is refreshed again once they open it. Publishes run one at a time, so an older list never
 * overwrites a newer one; failures are logged and never thrown.
 */
export function createAppHome(deps: AppHomeDeps): AppHome {
  const { client, store } = deps;
  const log = deps.log.child({ component: 'app-home' });
  const now = deps.now ?? (() => new Date());
  const delay = deps.refreshDelayMs ?? HOME_REFRESH_DELAY_MS;
  const details = createHomeDetailSource({
    client,
    log,
    channelFor: deps.channelFor,
    workspaceUrl: deps.workspaceUrl,
    sharedQuestions: deps.sharedQuestions,
  });
  /** insertion order is recency: a reopen moves a person to the end */
  const viewers = new Set<string>();
  let chain: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let refreshQueued = false;
  /** when the last refresh read the store (monotonic ms) */
  let lastRefreshAt = Number.NEGATIVE_INFINITY;
  let closed = false;
  const mayView = deps.mayView ?? (() => true);

  function enqueue(task: () => Promise<void>): Promise<void> {
    chain = chain.then(task).catch((err: unknown) => {
      log.warn({ err }, 'could not refresh App Home');
    });
    return chain;
  }

  async function publishFor(users: readonly string[]): Promise<void> {
    if (users.length === 0) return;
    // only the rows listed are looked into further: their number is bounded, the store's is not
    const selection = selectHomeBatches(store.all());
    const view = renderHome({
      ...selection,
      details: await details.detailsFor([...selection.open, ...selection.answered]),
      now: now(),
    });
    for (const user of users) {
      if (closed) return;
      try {
        await client.views.publish({ user_id: user, view });
      } catch (err) {
        log.warn({ err, user }, 'could not publish App Home; will try again at the next change');
      }
    }
    log.debug(
      { users: users.length, open: selection.open.length + selection.moreOpen },
      'App Home published',
    );
  }

  return {
    opened(userId) {
      if (closed) return Promise.resolve();
      if (!mayView(userId)) {
        // Run names and questions are for the people who may answer them.
        viewers.delete(userId);
        return enqueue(async () => {
          await client.views.publish({ user_id: userId, view: NOT_ALLOWED_VIEW });
        });
      }
      viewers.delete(userId);
      viewers.add(userId);
      if (viewers.size > MOST_VIEWERS) {
        const oldest = viewers.values().next().value;
        if (oldest !== undefined) viewers.delete(oldest);
      }
      return enqueue(() => publishFor([userId]));
    },

    refreshSoon() {
      if (closed || timer || viewers.size === 0) return;
      // soon after a first change, but never sooner than `delay` after the last refresh
      const wait = Math.max(
        Math.min(HOME_SETTLE_MS, delay),
        lastRefreshAt + delay - performance.now(),
      );
      timer = setTimeout(() => {
        timer = undefined;
        // At most one full refresh waits in line; it reads the store when its turn comes.
        if (refreshQueued) return;
        refreshQueued = true;
        void enqueue(() => {
          refreshQueued = false;
          lastRefreshAt = performance.now();
          return publishFor([...viewers]);
        });
      }, wait);
      timer.unref();
    },

    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await chain;
    },
  };
}
