import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { answeredElsewhere, ended, freshVersion } from '../core/batch/batch-changes.js';
import { batchKey } from '../core/batch/batch-key.js';
import type { BatchRecord, BatchStatus } from '../core/batch/batch-record.js';
import { idRecord } from '../core/protocol/id-record.js';
import {
  describeGap,
  listQaFiles,
  missingBefore,
  nextUnansweredSeq,
  type QaListing,
} from '../core/protocol/qa-listing.js';
import { qaDirOf } from '../core/protocol/run-folder.js';
import { errnoCode } from '../fs/errno.js';
import { createFolderGuard } from '../fs/folder-guard.js';
import { publishFileNoClobber } from '../fs/publish-file.js';
import type { RunFsEvent } from '../fs/run-events.js';
import type { SlackAvailability } from '../ops/slack-reachability.js';
import type { RecordChange, StateStore } from '../store/state-store.js';
import { createBatchActions, type RunOwners } from './batch-actions.js';
import { removeCrashLeftovers } from './crash-leftovers.js';
import { createElsewhereAnswers } from './elsewhere-answers.js';
import { createListAhead } from './list-ahead.js';
import type { Presenter } from './presenter.js';
import { publishAnswers } from './publish-answers.js';
import { createQuestionReader, type FileRead } from './question-reader.js';
import { createRunDisplay } from './run-display.js';
import { createRunNotices } from './run-notices.js';
import { createRunScheduler, type RunSchedulerDeps } from './run-scheduler.js';
import { createSlackWait } from './slack-wait.js';

/** Statuses of the one batch per run that is in front of people. */
const ACTIVE: readonly BatchStatus[] = ['open', 'submitting', 'malformed'];

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
}

export type BatchQueue = ReturnType<typeof createBatchQueue>;

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
export function createBatchQueue(deps: BatchQueueDeps) {
  const { store, presenter, log } = deps;
  const now = deps.now ?? (() => new Date());
  const change = stampedChange(store, now);
  const folders = createFolderGuard(deps.roots);
  const publishAnywhere = deps.publish ?? publishFileNoClobber;
  const publish: typeof publishFileNoClobber = async (dir, name, content) => {
    await folders.assertWritable(path.join(dir, name));
    return publishAnywhere(dir, name, content);
  };
  const scheduler = createRunScheduler({
    sync: (runDir) => syncRun(runDir),
    log,
    concurrency: deps.concurrency,
    retryBaseMs: deps.retryBaseMs,
    retryMostMs: deps.retryMostMs,
    closeGraceMs: deps.closeGraceMs,
  });
  const questions = createQuestionReader({
    now,
    log,
    askRoot: deps.askRoot,
    settleMs: deps.settleMs ?? 1000,
    lookAgain: (runDir, ms) => scheduler.later(ms, runDir),
  });
  const readCurrent = questions.read;
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
    settleMs: deps.settleMs ?? 1000,
    lookAgain: (runDir, ms) => scheduler.later(ms, runDir),
    post: deps.postNotice,
  });
  const notices = createRunNotices({
    notices: store.notices,
    post: deps.postNotice,
    log,
    now,
    gatherMs: deps.settleMs ?? 1000,
  });
  const listQa = deps.listQa ?? ((qaDir: string) => readdir(qaDir));
  const listAhead = createListAhead({ list: (runDir) => listQa(qaDirOf(runDir)) });
  const finishSubmit = (record: BatchRecord) =>
    publishAnswers(record, { questions, publish, change, log });

  const holds = (record: BatchRecord) => deps.shared?.owners.holds(record) ?? true;
  let stopWatching: (() => void) | undefined;

  /** Runs whose `qa/` folder was cleared of our crash leftovers since the relay started. */
  const cleaned = new Set<string>();
  const nowIso = () => now().toISOString();

  function activeRecord(runDir: string): BatchRecord | undefined {
    return store.forRun(runDir).find((r) => ACTIVE.includes(r.status));
  }

  /** Stores a record this relay makes (a batch newly opened), stamped with the time. */
  async function save(record: BatchRecord): Promise<BatchRecord> {
    const next = { ...record, updatedAt: nowIso() };
    await store.put(next);
    return next;
  }

  /**
   * Brings one run's records and messages in line with its `qa/` folder. A run folder or `qa/`
   * the folder guard refuses is not read: people are told, and its records stay as they are
   * (an answer given meanwhile is kept, its write refused) until the folder is fixed.
   */
  async function syncRun(runDir: string): Promise<void> {
    const refused = await folders.refusal(qaDirOf(runDir));
    if (refused) {
      const told = await notices.refusedFolder(refused);
      log.debug({ runDir, folder: refused.folder, told }, 'not reading a refused run folder');
      if (!told) scheduler.later(scheduler.backOff(runDir), runDir);
      return;
    }
    await notices.usable(runDir);
    let names: string[] | undefined;
    try {
      names = await (listAhead.take(runDir) ?? listQa(qaDirOf(runDir)));
    } catch (err) {
      const code = errnoCode(err);
      if (code === 'EACCES' || code === 'EPERM') {
        // people are told once; the folder is listed again, slower and slower, until it opens
        const told = await notices.unreadable(qaDirOf(runDir), code);
        log.debug({ runDir, code, told }, 'cannot list the qa/ folder; will look again');
        scheduler.later(scheduler.backOff(runDir), runDir);
        return;
      }
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err; // no qa/ folder: the run is gone
    }
    if (names === undefined) {
      await closeGoneRun(runDir);
      return;
    }
    await notices.readable(qaDirOf(runDir));
    // protocol names, then the others: only they can be leftovers or look-alikes
    const listing = listQaFiles(names);
    if (!cleaned.has(runDir)) {
      // before anything is read: a leftover hard-linked to an answer file gives it two names
      cleaned.add(runDir);
      await removeCrashLeftovers(runDir, listing.others, log);
    }
    await advance(runDir, listing);
    await elsewhere.settle(runDir);
    await display.show(runDir);
    const again = await notices.lookAlikes(runDir, listing.others);
    if (again === 'back-off') scheduler.later(scheduler.backOff(runDir), runDir);
    else if (again !== undefined) scheduler.later(again, runDir);
  }

  /**
   * The run's folder is gone: its open batch is closed, and once people have seen that, the
   * run is forgotten; its state file would otherwise be kept and loaded at every start.
   */
  async function closeGoneRun(runDir: string): Promise<void> {
    const active = activeRecord(runDir);
    if (active) {
      log.info({ runDir, seq: active.seq }, 'run folder removed; closing its open batch');
      await change(active.key, (r) => ended(r, 'run-removed'));
    }
    questions.forget(runDir);
    cleaned.delete(runDir);
    elsewhere.forget(runDir);
    await notices.forgetRun(runDir);
    await display.show(runDir);
    const records = store.forRun(runDir);
    if (records.length === 0) return;
    if (!display.allShown(runDir)) return;
    await store.forget(runDir);
    log.info({ runDir, batches: records.length }, 'run folder gone; forgot its batches');
  }

  /** Closes the active batch when the folder says so, and opens the next one in order. */
  async function advance(runDir: string, listing: QaListing): Promise<void> {
    for (;;) {
      const active = activeRecord(runDir);
      if (active) {
        const stillActive = await settleActive(active, listing);
        if (stillActive) return;
        continue;
      }
      const seq = nextUnansweredSeq(listing);
      if (seq === undefined) return;
      const read = await readCurrent(runDir, seq);
      if (read.kind === 'settling') return;
      if (read.kind === 'missing') {
        listing.questions = listing.questions.filter((s) => s !== seq);
        continue;
      }
      const note = describeGap(missingBefore(listing, seq), seq);
      if (await openRecord(runDir, seq, read, note)) return;
      listing.answers.add(seq);
    }
  }

  /** Returns true while the active record stays active. */
  async function settleActive(record: BatchRecord, listing: QaListing): Promise<boolean> {
    const { runDir, seq } = record;
    if (record.status === 'submitting') {
      const outcome = await finishSubmit(record);
      if (outcome.kind === 'answered' || outcome.kind === 'answered-elsewhere') {
        listing.answers.add(seq);
      }
      return activeRecord(runDir) !== undefined;
    }
    if (listing.answers.has(seq)) {
      log.info({ runDir, seq }, 'batch answered by another provider');
      await change(record.key, (r) => answeredElsewhere(r, nowIso()));
      return false;
    }
    const read = await readCurrent(runDir, seq);
    if (read.kind === 'missing') {
      log.info({ runDir, seq }, 'question file deleted before it was answered; batch withdrawn');
      await change(record.key, (r) => ended(r, 'withdrawn'));
      return false;
    }
    if (read.kind === 'settling' || read.fingerprint === record.fingerprint) return true;
    if (read.kind === 'valid') {
      log.info({ runDir, seq }, 'question file rewritten; showing the new version');
      await change(record.key, (r) => freshVersion(r, read.fingerprint, 'open'));
    } else {
      log.warn({ runDir, seq, error: read.error }, 'question file rewritten and now malformed');
      await change(record.key, (r) => freshVersion(r, read.fingerprint, 'malformed'));
    }
    return true;
  }

  async function openRecord(
    runDir: string,
    seq: number,
    read: FileRead & { fingerprint: string },
    note: string | undefined,
  ): Promise<boolean> {
    const key = batchKey(runDir, seq, deps.shared?.node);
    const at = nowIso();
    const status: BatchStatus = read.kind === 'valid' ? 'open' : 'malformed';
    if (read.kind === 'malformed') {
      log.warn({ runDir, seq, error: read.error }, 'question file is malformed');
    }
    if (note) log.warn({ runDir, seq }, note);
    const previous = store.get(key);
    if (previous?.status === 'cancelled' && previous.fingerprint === read.fingerprint) {
      return false; // cancelled on purpose: no answer file will ever come
    }
    if (
      (previous?.status === 'answered' || previous?.status === 'answered-elsewhere') &&
      previous.fingerprint === read.fingerprint
    ) {
      // Its answer file was removed after it was answered; asking again would answer twice.
      log.warn({ runDir, seq }, 'answer file of an answered batch is gone; not asking again');
      return false;
    }
    // The file store shows a put at once and is not waited for: if the write is lost in a
    // crash, the next start finds the file and opens it again, and waiting for the disk would
    // only delay the message people are waiting for. The Redis store (shared mode) shows a
    // put once Redis has it: waited for, or the display would find nothing to show; while
    // Redis is away the put fails, and so does this sync, which the scheduler tries again.
    const saving = save({
      key,
      runDir,
      seq,
      fingerprint: read.fingerprint,
      status,
      drafts: idRecord(),
      createdAt: previous?.createdAt ?? at,
      updatedAt: at,
      ...(deps.shared ? { node: deps.shared.node } : {}),
      ...(note ? { note } : {}),
      ...(previous?.presentation ? { presentation: previous.presentation } : {}),
    });
    if (deps.shared) await saving;
    else
      saving.catch((err: unknown) =>
        log.error({ err, runDir, seq }, 'could not save the new batch'),
      );
    return true;
  }

  return {
    /** Feeds a watcher event; before `start` events are only collected. */
    notify(event: RunFsEvent) {
      listAhead.forget(event.runDir);
      scheduler.schedule(event.runDir);
    },

    /**
     * Starts syncing every run seen so far and every run the store knows: open batches are
     * resumed, and runs whose folder went while the relay was down are closed and forgotten.
     */
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

    /** Resolves when no run is being synced and none is waiting (timers aside). */
    idle: () => scheduler.idle(),

    /** Shows again, now, every batch held back after a refusal no retry would fix. */
    retryRefused() {
      for (const runDir of display.release()) scheduler.schedule(runDir);
    },

    /** The watcher may not read `where` (a run folder, a watched folder): people are told once. */
    reportUnreadable(where: string, code: string): void {
      void notices.unreadable(where, code);
    },

    // lookup, saveDraft, saveFollowUp, handOff, amendOpen, claim, cancel, submit
    ...createBatchActions({
      store,
      scheduler,
      questions,
      change,
      show: display.show,
      finishSubmit,
      assertWritable: folders.assertWritable,
      ...(deps.shared ? { owners: deps.shared.owners } : {}),
      log,
      now,
    }),

    /** Stops timers and further syncs; waits for syncs under way, at most `closeGraceMs`. */
    close() {
      stopWatching?.();
      listAhead.close();
      slackWait.close();
      return scheduler.close();
    },
  };
}
