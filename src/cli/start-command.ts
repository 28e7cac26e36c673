import { mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { asksRoot, watchedRoots } from '../ask/ask-folder.js';
import { pruneFinishedAsks } from '../ask/prune-asks.js';
import { createAuditLog } from '../audit/audit-log.js';
import { createAuditNames } from '../audit/audit-names.js';
import { noticesDir, watchIdleNotices } from '../claude-code/idle-notices.js';
import type { DigestLease } from '../cluster/shared-digests.js';
import { openSharedMode, type SharedMode } from '../cluster/shared-mode.js';
import type { Config } from '../config/config-schema.js';
import { auditEntryOf } from '../core/audit/audit-entry.js';
import { idleNoticeText } from '../core/claude-code/idle-notice.js';
import { readOrigin } from '../core/protocol/questions/batch-origin.js';
import type { QuestionBatch } from '../core/protocol/questions/question.js';
import { channelForPath, channelForProject, channelsOf } from '../core/slack/channel-routes.js';
import { FileWriteError } from '../fs/file-write-error.js';
import { watchRuns } from '../fs/watch-runs.js';
import { createRelayOps } from '../ops/relay-ops.js';
import { type BatchQueueDeps, createBatchQueue } from '../queue/batch-queue.js';
import type { Presenter } from '../queue/presenter.js';
import { createReminders } from '../queue/reminders.js';
import type { AskServer } from '../remote/ask-server.js';
import { serveAskApi } from '../remote/serve-ask-api.js';
import { isAllowed } from '../slack/access/allow-list.js';
import { createGroupMembers } from '../slack/access/allow-list-groups.js';
import { createModalSeal, loadModalSealKey } from '../slack/access/modal-seal.js';
import { submittedViewsInMemory } from '../slack/access/submitted-views.js';
import { createDigestKeeper, type DigestKeeper } from '../slack/digest/digest-keeper.js';
import { openDigestMessages } from '../slack/digest/digest-messages.js';
import { type AppHome, createAppHome } from '../slack/home/app-home.js';
import { withAppHomeRefresh } from '../slack/home/app-home-refresh.js';
import { registerListeners } from '../slack/listeners/register-listeners.js';
import { createFullPreviews } from '../slack/presenting/full-preview.js';
import { createNoticePoster } from '../slack/presenting/post-notice.js';
import { createReminderPoster } from '../slack/presenting/post-reminder.js';
import { createWaitingNotePoster } from '../slack/presenting/post-waiting-note.js';
import { withSlackErrorHints } from '../slack/presenting/slack-errors.js';
import { createSlackPresenter } from '../slack/presenting/slack-presenter.js';
import { checkChannel } from '../slack/start-up/check-channel.js';
import { checkEscalationAtStart } from '../slack/start-up/escalation-target.js';
import { type BotIdentity, checkClient } from '../slack/start-up/token-check.js';
import { waitForSlack } from '../slack/start-up/wait-for-slack.js';
import { createSlackApp } from '../slack/transport/create-slack-app.js';
import { unlessStopped } from '../stop-signals.js';
import { openFileStateStore } from '../store/file-state-store.js';
import type { StateStore } from '../store/state-store.js';
import type { BackOff } from '../wait-until-reachable.js';

/** Timing knobs (the defaults suit production, tests shorten them), and the stop signal. */
export interface StartOptions {
  /**
   * Gives the start up as soon as it aborts (SIGTERM), in whichever step it is: waiting for
   * Slack or Redis, connecting, the first scan. What was opened is closed, then `runStart`
   * rejects with the signal's reason.
   */
  signal?: AbortSignal;
  /** how answer files are published (tests pass one that fails on purpose) */
  publish?: BatchQueueDeps['publish'];
  allowList?: {
    /** how often user-group members are fetched again (default 5 min) */
    refreshMs?: number;
    /** least time between refreshes when someone not on the list acts (default 1 min) */
    missRefreshMs?: number;
  };
  reminders?: {
    /** the clock deadlines are set and checked against: the reminders', and a control's */
    now?: () => Date;
    /** how often due deadlines are looked for (default 5 s) */
    tickMs?: number;
  };
  /** back-off while Slack cannot be reached at start (default 1 s doubling to 30 s) */
  slackWait?: BackOff;
  /** back-off while Redis cannot be reached at start, in shared mode (the same default) */
  redisWait?: BackOff;
  /**
   * The queue's retries: a failed run waits `retryBaseMs` (1 s) doubling to `retryMostMs`
   * (1 min); stopping waits `closeGraceMs` (5 s) for syncs under way; a question file must stay
   * unparseable `settleMs` (1 s) before it is called malformed.
   */
  queue?: Pick<BatchQueueDeps, 'retryBaseMs' | 'retryMostMs' | 'closeGraceMs' | 'settleMs'>;
  /** how often Slack is probed while it does not answer (default 2 s) */
  slackProbeEveryMs?: number;
  /** Web API retries inside one attempt (default 4, from 0.5 s doubling to 8 s) */
  slackApiRetry?: webApi.RetryOptions;
  /** how long after the first Socket Mode connection the second opens (default 10 s) */
  socketStaggerMs?: number;
  /** least time between two edits of one batch's messages (default 250 ms; 0: none) */
  updateEveryMs?: number;
  home?: {
    /** least time between two refreshes of the Home tabs (default 1 s) */
    refreshDelayMs?: number;
    /** the clock Home tab ages are measured against */
    now?: () => Date;
  };
  digest?: {
    /** least time between two changes of one channel's digest (default 1 s) */
    everyMs?: number;
  };
}

/** How often finished `ask` folders are looked for. */
const PRUNE_ASKS_EVERY_MS = 10 * 60_000;

/** A running relay. */
export interface RunningRelay {
  stop(): Promise<void>;
  /** Tries again, now, every batch Slack refused for good (after a fix outside the relay). */
  retryRefused(): void;
}

/**
 * Wires the relay together: state store, Slack app, queue, watcher. Start order matters:
 * the tokens are checked before anything opens (a refused one is a configuration error; an
 * unreachable Slack is waited for, and so is Redis in shared mode), Slack is connected before
 * batches are shown, and the first sync waits for the watcher's initial scan so that answered
 * batches are never shown again.
 */
export async function runStart(
  config: Config,
  log: Logger,
  options: StartOptions = {},
): Promise<RunningRelay> {
  const { signal } = options;
  // Tokens first: a refused one is a configuration error, and nothing needs closing yet.
  const bot = await checkTokens(config, log, options);
  // Operators' view (src/ops): /healthz and /metrics on RELAY_METRICS_PORT, and the log lines
  // about batches posted and answered and about Slack's availability. It follows the store,
  // the Slack app's clients and connection, and the watcher, which are handed to it below.
  const ops = createRelayOps(config, log.child({ component: 'ops' }), {
    probeEveryMs: options.slackProbeEveryMs,
  });
  // Made before anything opens; it connects to Slack only at `app.start`.
  const app = createSlackApp(config.slack, log, bot, ops.slackHooks, {
    apiRetry: options.slackApiRetry,
    socketStaggerMs: options.socketStaggerMs,
  });
  // Shared mode (RELAY_REDIS_URL): records in Redis, and any relay acts on any batch.
  const shared =
    config.shared &&
    (await openSharedMode(config.shared, config.stateDir, log, {
      tellOwnerAway: createWaitingNotePoster(app.client),
      redisWait: options.redisWait,
      signal,
    }));
  // every decision this relay stores, in the audit log (RELAY_AUDIT_LOG)
  const audit = createAuditLog(config.auditLog, log.child({ component: 'audit' }));
  const relayName = shared?.node ?? hostname();
  const names = createAuditNames({
    lookup: async (user) => {
      const found = (await app.client.users.info({ user })).user;
      return found?.profile?.display_name || found?.real_name || found?.name || undefined;
    },
  });
  // the digest, made below, hears of every record stored
  let digest: DigestKeeper | undefined;
  const store = ops.observeStore(
    shared?.store ??
      (await openFileStateStore(config.stateDir, { log: log.child({ component: 'store' }) })),
    {
      async decided(record, before) {
        const entry = auditEntryOf(record, relayName, new Date(), before);
        if (!entry) return;
        const name = entry.by && (await names.of(entry.by));
        return audit.append(name ? { ...entry, name } : entry);
      },
      stored: (record) => digest?.stored(record),
    },
  );
  const seal = createModalSeal(shared?.sealKey ?? (await loadModalSealKey(config.stateDir)));
  // `ask` hands its batches over as run folders in its own folder, always watched.
  const asks = asksRoot(config.stateDir);
  const roots = watchedRoots(config);
  const channelFor = (place: string) => channelForPath(roots, config.slack.channelId, place);
  // a hook's batch (the relay wrote it) goes to the channel of its project's RELAY_WATCH entry
  const batchChannel = (place: string, batch?: QuestionBatch) => {
    const project = batch && readOrigin(batch)?.project;
    return project
      ? channelForProject(config.watch, config.slack.channelId, project)
      : channelFor(place);
  };
  const home = createAppHome({
    client: app.client,
    store,
    log,
    workspaceUrl: bot.url,
    mayView: (user) => isAllowed(user, config.allowedUsers, groups.current()),
    // another machine's runs follow that relay's RELAY_WATCH, not this one's
    channelFor: (record) =>
      shared && !shared.holds(record) ? undefined : channelFor(record.runDir),
    // and their question files are there: their relay shared the questions
    sharedQuestions: (record) =>
      shared && !shared.holds(record) ? shared.owners.batchOf(record) : undefined,
    ...options.home,
  });
  // A digest of each channel's quick batches (RELAY_DIGEST_AT); in shared mode one relay
  // keeps every channel's, listing every relay's batches, and another takes over when it stops.
  let digestLease: DigestLease | undefined;
  digest =
    config.digestAt === 0
      ? undefined
      : createDigestKeeper({
          client: app.client,
          records: () => store.all(),
          batchOf: async (record) => (await queue.actions.lookup(record.key))?.batch,
          at: config.digestAt,
          messages: shared?.digestMessages ?? (await openDigestMessages(config.stateDir, log)),
          log: log.child({ component: 'digest' }),
          ...(shared ? { keeps: () => digestLease?.holds() ?? false } : {}),
          ...options.digest,
        });
  const shown = presenterFor(app.client, batchChannel, { shared, home, log });
  const queue = createBatchQueue({
    store,
    presenter: shown,
    log: log.child({ component: 'queue' }),
    roots: roots.map((root) => root.path),
    slack: ops.slackAvailability,
    publish: options.publish,
    updateEveryMs: options.updateEveryMs,
    askRoot: asks,
    postNotice: createNoticePoster(app.client, channelFor),
    ...(shared ? { shared: { node: shared.node, owners: shared.owners } } : {}),
    // a decision through the digest (or any, with RELAY_UNDO_ALL) waits a moment for Undo
    holdFor: (input) => (input.via || config.undo.everywhere ? config.undo.seconds * 1000 : 0),
    ...options.queue,
  });
  // Deadlines are set and checked against one clock: the reminders' and those a control sets.
  const deadlineClock = options.reminders?.now ?? (() => new Date());
  const reminders = createReminders({
    // each relay reminds of its own machine's batches only
    store: shared ? { all: () => store.all().filter(shared.holds) } : store,
    actions: queue.actions,
    remind: createReminderPoster(app.client),
    policy: config.reminders ?? {},
    log: log.child({ component: 'reminders' }),
    ...options.reminders,
    now: deadlineClock,
  });
  const groups = createGroupMembers({
    client: app.client,
    groups: config.allowedUsers?.groups ?? [],
    log: log.child({ component: 'allow-list' }),
    ...options.allowList,
  });
  registerListeners(app, {
    actions: queue.actions,
    log,
    seal,
    now: deadlineClock,
    fullPreviews: createFullPreviews({
      client: app.client,
      seal,
      log: log.child({ component: 'previews' }),
    }),
    home,
    allowList: config.allowedUsers,
    groups,
    submittedViews: shared?.submittedViews ?? submittedViewsInMemory(),
    ...(digest ? { digest } : {}),
  });

  await mkdir(asks, { recursive: true }).catch((error: unknown) => {
    throw new FileWriteError('Creating the folder for ask', asks, error);
  });
  // Claude Code's "waiting for your input", left by `hook`: a line in its project's channel
  const notices = noticesDir(config.stateDir);
  await mkdir(notices, { recursive: true }).catch((error: unknown) => {
    throw new FileWriteError("Creating the folder for hook's notices", notices, error);
  });
  // to the project's RELAY_WATCH entry's channel, as its hook batches go; else the default one
  const postToProject = createNoticePoster(app.client, (project) =>
    channelForProject(config.watch, config.slack.channelId, project),
  );
  const idle = watchIdleNotices({
    dir: notices,
    // another machine's folder picks no channel here: '' is in no RELAY_WATCH entry
    post: (notice) =>
      postToProject(idleNoticeText(notice), notice.askedBy === undefined ? notice.project : ''),
    log: log.child({ component: 'notices' }),
    usePolling: config.poll,
  });
  // The first scan of the folders and the connection to Slack run side by side; the queue
  // collects what the scan finds and starts once both are done.
  const watcher = watchRuns(
    roots.map((root) => root.path),
    (event) => queue.notify(event),
    {
      log: log.child({ component: 'watcher' }),
      usePolling: config.poll,
      onUnreadable: (where, code) => queue.reportUnreadable(where, code),
      // the queue lists a run's qa/ when told of it: listing it here too doubled the start
      reportExisting: false,
    },
  );
  log.info({ mode: config.slack.mode, apiUrl: config.slack.apiUrl }, 'connecting to Slack');
  let stopPruning: (() => void) | undefined;
  // Other machines' `hook`, `mcp` and `ask` (RELAY_ASK_PORT): they put batches into asks/ too.
  let askApi: AskServer | undefined;
  // Clicks stop first, so nothing reaches a closing queue or store; each part is closed even
  // if an earlier one fails, so the state lock is always released.
  const stop = () => {
    stopPruning?.();
    return stopInOrder(log, [
      async () => askApi?.close(),
      () => app.stop(),
      async () => shared?.stopServing(),
      () => reminders.close(),
      () => watcher.close(),
      () => idle.close(),
      () => queue.close(),
      async () => digest?.close(),
      () => audit.flushed(),
      async () => groups.stop(),
      () => home.close(),
      () => ops.close(),
      () => (shared ? shared.close() : store.close()),
    ]);
  };
  const channels = channelsOf(roots);
  try {
    signal?.throwIfAborted();
    // Health first: a metrics port in use stops the start before Slack is connected, and
    // /healthz says "connecting" meanwhile.
    await ops.start(watcher);
    if (config.askServer)
      askApi = await serveAskApi(
        config.askServer,
        config.stateDir,
        log.child({ component: 'ask-api' }),
      );
    await unlessStopped(
      Promise.all([
        groups.start(),
        config.slack.mode === 'http' ? app.start(config.slack.port) : app.start(),
        watcher.ready,
      ]),
      signal,
    );
    for (const channel of channels) {
      await unlessStopped(checkChannel(app.client, channel, log), signal);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  queue.start();
  digest?.start();
  if (shared && digest) {
    const kept = digest;
    // what other relays store reaches the keeper too
    store.watch((record) => kept.stored(record));
    digestLease = shared.keepDigests((held) => (held ? kept.start() : kept.forget()));
  }
  shared?.serve(queue.actions);
  // batches of other machines change there: the Home tabs shown here follow
  if (shared) store.watch(() => home.refreshSoon());
  reminders.start();
  stopPruning = pruneAsksNowAndThen(asks, store, log);
  log.info(
    {
      watch: config.watch,
      channels,
      stateDir: config.stateDir,
      ...(shared ? { node: shared.node } : {}),
      ...(config.slack.mode === 'http' ? { httpPort: config.slack.port } : {}),
      ...(ops.metricsPort !== undefined ? { metricsPort: ops.metricsPort } : {}),
      ...(askApi ? { askPort: askApi.port } : {}),
    },
    'relay ready',
  );

  return { stop, retryRefused: () => queue.retryRefused() };
}

/**
 * Waits for Slack to answer and checks the bot token (a refused one is a configuration error),
 * then the escalation target, if any; gives what `auth.test` said of the bot.
 */
async function checkTokens(
  config: Config,
  log: Logger,
  options: Pick<StartOptions, 'slackWait' | 'signal'>,
): Promise<BotIdentity> {
  const bot = await waitForSlack(config.slack, log.child({ component: 'slack' }), {
    backOff: options.slackWait,
    signal: options.signal,
  });
  const escalateTo = config.reminders?.escalate?.to;
  if (escalateTo) {
    const client = checkClient(config.slack.botToken, config.slack.apiUrl);
    await unlessStopped(checkEscalationAtStart(client, escalateTo, log), options.signal);
  }
  return bot;
}

/**
 * How batches are shown: the Slack presenter, its refusals given their fixes, each batch's
 * questions shared first in shared mode, and the Home tabs refreshed after each change.
 */
function presenterFor(
  client: webApi.WebClient,
  channelFor: (runDir: string, batch?: QuestionBatch) => string,
  deps: { shared: SharedMode | undefined; home: AppHome; log: Logger },
): Presenter {
  const { shared, home, log } = deps;
  const slack = withSlackErrorHints(
    createSlackPresenter({ client, channelFor, log: log.child({ component: 'slack' }) }),
  );
  return withAppHomeRefresh(shared ? shared.present(slack) : slack, home, log);
}

/**
 * Removes finished `ask` folders now and every so often, so they don't pile up watches and
 * state; gives how to stop.
 */
function pruneAsksNowAndThen(asks: string, store: StateStore, log: Logger): () => void {
  const prune = () =>
    pruneFinishedAsks({ asksRoot: asks, store, log, now: () => new Date() }).catch((err: unknown) =>
      log.warn({ err }, 'could not prune finished asks'),
    );
  void prune();
  const timer = setInterval(prune, PRUNE_ASKS_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Runs each step in turn, the next one even when one fails (that is logged at debug). */
async function stopInOrder(log: Logger, steps: readonly (() => Promise<unknown>)[]): Promise<void> {
  for (const step of steps) {
    await Promise.resolve()
      .then(step)
      .catch((err: unknown) => log.debug({ err }, 'while stopping'));
  }
}
