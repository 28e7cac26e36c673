import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { BatchRecord } from '../core/batch/batch-record.js';
import { qaDirOf } from '../core/protocol/run-folder.js';
import { createFolderGuard } from '../fs/folder-guard.js';
import { publishFileNoClobber } from '../fs/publish-file.js';
import type { RunFsEvent } from '../fs/run-events.js';
import type { SlackAvailability } from '../ops/slack-reachability.js';
import type { RecordChange, StateStore } from '../store/state-store.js';
import type { SubmitInput } from './actions/action-inputs.js';
import { type BatchActions, createBatchActions } from './actions/batch-actions.js';
import { createElsewhereAnswers } from './elsewhere-answers.js';
import type { Presenter } from './presenter.js';
import { publishAnswers } from './publish-answers.js';
import { createListAhead } from './runs/list-ahead.js';
import { createQuestionReader } from './runs/question-reader.js';
import { createRunDisplay } from './runs/run-display.js';
import { createRunNotices } from './runs/run-notices.js';
import { otherOwner, type RunOwners } from './runs/run-owners.js';
import { createRunScheduler, type RunSchedulerDeps } from './runs/run-scheduler.js';
import { createRunSync } from './runs/run-sync.js';
import { createSlackWait } from './slack-wait.js';
import { createWakeUps } from './wake-ups.js';

/**
 * The queue as the relay's other parts use it: the watcher feeds it, the start command starts
 * and stops it, and people's actions go through `actions`.
 */
export interface BatchQueue {
  /** Feeds a watcher event; before `start` events are only collected. */
  notify(event: RunFsEvent): void;
  /**
   * Starts syncing every run seen so far and every run the store knows: open batches are
   * resumed, and runs whose folder went while the relay was down are closed and forgotten.
   */
  start(): void;
  /** Resolves when no run is being synced and none is waiting (timers aside). */
  idle(): Promise<void>;
  /** Shows again, now, every batch held back after a refusal no retry would fix. */
  retryRefused(): void;
  /** The watcher may not read `where` (a run folder, a watched folder): people are told once. */
  reportUnreadable(where: string, code: string): void;
  /** What people do to batches, and the relay's own changes to open ones (reminders). */
  readonly actions: BatchActions;
  /** Stops timers and further syncs; waits for syncs under way, at most `closeGraceMs`. */
  close(): Promise<void>;
}

export interface BatchQueueDeps
  extends Pick<RunSchedulerDeps, 'concurrency' | 'retryBaseMs' | 'retryMostMs' | 'closeGraceMs'> {
  store: StateStore;
  presenter: Presenter;
  log: Logger;
  /**
   * The watched folders (`RELAY_WATCH`'s and `ask`'s): only run folders really below them are
   * read and written (see `createFolderGuard`).
   */
  roots: readonly string[];
  now?: () => Date;
  /**
   * Whether Slack is down, and news of it coming back: a run that could not show its batches
   * while Slack is down waits for that instead of its own back-off. Without it, each run backs
   * off on its own.
   */
  slack?: SlackAvailability;
  /** How long a question file must stay unparseable, unchanged, before it is reported malformed. */
  settleMs?: number;
  /** Publishes an answer file without overwriting one (the real one unless a test passes another). */
  publish?: typeof publishFileNoClobber;
  /** Lists a `qa/` folder (`readdir`, unless a test passes one that says what it listed). */
  listQa?: (qaDir: string) => Promise<string[]>;
  /** How long a batch Slack refused for good waits before it is tried again unchanged (1 h). */
  refusedRetryMs?: number;
  /** Least time between two edits of one batch's messages (250 ms; 0: none). */
  updateEveryMs?: number;
  /** The folder of the run folders `ask` hands over: only there is a batch's `source` honoured. */
  askRoot?: string;
  /**
   * Posts a notice for people about the watched folders, in the channel of the folder it is
   * `about`; without it, notices are only logged.
   */
  postNotice?: (text: string, about: string) => Promise<void>;
  /**
   * Shared mode: this relay's machine (`RELAY_NODE`), in its batches' keys and records, and
   * what it asks of the relays holding other machines' runs.
   */
  shared?: { node: string; owners: RunOwners };
  /** How long a Submit's decision is held for Undo, in ms (see `submitBatch`); absent: none. */
  holdFor?: (input: SubmitInput) => number;
}

/** The queue's one way to change a stored record: the store's, each change stamped with the time. */
export function stampedChange(store: Pick<StateStore, 'update'>, now: () => Date): RecordChange {
  return (key, edit) =>
    store.update(key, (current) => {
      const next = edit(current);
      return next && { ...next, updatedAt: now().toISOString() };
    });
}

/**
 * The ordered, restart-safe queue: per run, the lowest unanswered batch is in front of people,
 * its state is stored before anything is shown, and answer files are published exactly once.
 * It is level-triggered: any hint about a run makes it re-read that run's `qa/` folder and bring
 * the store and the presenter in line with what is on disk.
 */
export function createBatchQueue(deps: BatchQueueDeps): BatchQueue {
  const { store, presenter, log } = deps;
  const now = deps.now ?? (() => new Date());
  const settleMs = deps.settleMs ?? 1000;
  const change = stampedChange(store, now);
  const folders = createFolderGuard(deps.roots);
  const publishAnywhere = deps.publish ?? publishFileNoClobber;
  const publish: typeof publishFileNoClobber = async (dir, name, content) => {
    await folders.assertWritable(path.join(dir, name));
    return publishAnywhere(dir, name, content);
  };
  const scheduler = createRunScheduler({
    sync: (runDir) => runs.sync(runDir),
    log,
    concurrency: deps.concurrency,
    retryBaseMs: deps.retryBaseMs,
    retryMostMs: deps.retryMostMs,
    closeGraceMs: deps.closeGraceMs,
  });
  const lookAgain = (runDir: string, ms: number) => scheduler.later(ms, runDir);
  const questions = createQuestionReader({
    now,
    log,
    askRoot: deps.askRoot,
    settleMs,
    lookAgain,
  });
  const slackWait = createSlackWait({
    slack: deps.slack,
    schedule: (runDir) => scheduler.schedule(runDir),
    busy: (runDir) => scheduler.busy(runDir),
    working: () => scheduler.working(),
    backOff: (runDir) => scheduler.backOff(runDir),
    now: () => now().getTime(),
  });
  const display = createRunDisplay({
    store,
    presenter,
    questions,
    scheduler,
    slackWait,
    change,
    log,
    now,
    refusedRetryMs: deps.refusedRetryMs,
    updateEveryMs: deps.updateEveryMs,
  });
  const elsewhere = createElsewhereAnswers({
    store,
    change,
    log,
    now,
    settleMs,
    lookAgain,
    post: deps.postNotice,
  });
  const notices = createRunNotices({
    notices: store.notices,
    post: deps.postNotice,
    log,
    now,
    gatherMs: settleMs,
  });
  const wakeUps = createWakeUps({ schedule: (runDir) => scheduler.schedule(runDir), now });
  const wakeAt = wakeUps.at;
  const listQa = deps.listQa ?? ((qaDir: string) => readdir(qaDir));
  const listAhead = createListAhead({ list: (runDir) => listQa(qaDirOf(runDir)) });
  const finishSubmit = (record: BatchRecord) =>
    publishAnswers(record, { questions, publish, change, log });
  const runs = createRunSync({
    store,
    questions,
    folders,
    notices,
    scheduler,
    listAhead,
    listQa,
    elsewhere,
    display,
    change,
    finishSubmit,
    log,
    now,
    wakeAt,
    ...(deps.shared ? { node: deps.shared.node } : {}),
  });
  const actions = createBatchActions({
    store,
    scheduler,
    questions,
    change,
    show: display.show,
    finishSubmit,
    assertWritable: folders.assertWritable,
    ...(deps.shared ? { owners: deps.shared.owners } : {}),
    ...(deps.holdFor ? { holdFor: deps.holdFor } : {}),
    wakeAt,
    log,
    now,
  });

  const holds = (record: BatchRecord) => !otherOwner(deps.shared?.owners, record);
  let stopWatching: (() => void) | undefined;

  return {
    notify(event) {
      listAhead.forget(event.runDir);
      scheduler.schedule(event.runDir);
    },

    start() {
      const held = store
        .all()
        .filter(holds)
        .map((record) => record.runDir);
      // thousands of runs at a restart: their folders are listed ahead, many at once, from
      // before the first sync, so that no sync takes a listing made after it began
      scheduler.start(held, (order) => listAhead.start(order));
      // a record of ours another relay changed (a choice, a hand-off): show it on every screen
      stopWatching = store.watch((record) => {
        if (holds(record)) scheduler.schedule(record.runDir);
      });
    },

    idle: () => scheduler.idle(),

    retryRefused() {
      for (const runDir of display.release()) scheduler.schedule(runDir);
    },

    reportUnreadable(where, code) {
      void notices.unreadable(where, code);
    },

    actions,

    close() {
      stopWatching?.();
      listAhead.close();
      slackWait.close();
      wakeUps.close();
      return scheduler.close();
    },
  };
}
