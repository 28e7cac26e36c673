import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { CANCELLED_FILE_NAME, serializeCancellation } from '../core/envelope/ask-cancellation.js';
import { isEnvelopeBatch, questionsMissingText } from '../core/envelope/envelope-batch.js';
import { buildAnswerFile } from '../core/protocol/build-answer-file.js';
import type { Answer } from '../core/protocol/question.js';
import { batchKey } from '../core/queue/batch-key.js';
import {
  describeGap,
  listQaFiles,
  missingBefore,
  nextUnansweredSeq,
  type QaListing,
} from '../core/queue/qa-listing.js';
import { publishFileNoClobber } from '../fs/publish-file.js';
import type { RunFsEvent } from '../fs/run-events.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import type { BatchRecord, BatchStatus, StateStore } from '../store/batch-record.js';
import type { Presenter } from './presenter.js';
import { publishAnswers } from './publish-answers.js';
import { createQuestionReader, type FileRead, isMissing } from './question-reader.js';
import { createRunScheduler, type RunSchedulerDeps } from './run-scheduler.js';
import { createRunShower } from './show-run.js';
import { withHandoff } from './with-handoff.js';

/** When to list a newly seen run folder again (see `notify`). */
const NEW_FOLDER_RELIST_MS = [50, 500] as const;

/** Statuses of the one batch per run that is in front of people. */
const ACTIVE: readonly BatchStatus[] = ['open', 'submitting', 'malformed'];

/** Result of a person pressing Submit (or a one-tap answer). */
export type SubmitOutcome =
  | { kind: 'answered'; record: BatchRecord }
  | { kind: 'answered-elsewhere'; record: BatchRecord }
  | { kind: 'incomplete'; missing: string[]; problems: string[] }
  /** envelope batch: these questions' choices ask for typed text that is missing */
  | { kind: 'needs-text'; questionIds: string[] }
  | { kind: 'write-failed'; message: string }
  | { kind: 'closed'; status: BatchStatus }
  | { kind: 'out-of-date' }
  | { kind: 'unknown' };

/** Result of recording one choice. */
export type DraftOutcome =
  | { kind: 'saved'; record: BatchRecord }
  | { kind: 'closed'; status: BatchStatus }
  | { kind: 'out-of-date' }
  | { kind: 'unknown' };

/** Result of pressing Cancel on an envelope batch. */
export type CancelOutcome =
  | { kind: 'cancelled'; record: BatchRecord }
  | { kind: 'not-cancellable' }
  | { kind: 'write-failed'; message: string }
  | { kind: 'closed'; status: BatchStatus }
  | { kind: 'out-of-date' }
  | { kind: 'unknown' };

export interface BatchQueueDeps
  extends Pick<RunSchedulerDeps, 'concurrency' | 'retryBaseMs' | 'closeGraceMs'> {
  store: StateStore;
  presenter: Presenter;
  log: Logger;
  now?: () => Date;
  /** How long a question file must stay unparseable, unchanged, before it is reported malformed. */
  settleMs?: number;
  /** Publishes an answer file without overwriting one (the real one unless a test passes another). */
  publish?: typeof publishFileNoClobber;
}

export type BatchQueue = ReturnType<typeof createBatchQueue>;

/**
 * The ordered, restart-safe queue: per run, the lowest unanswered batch is in front of people,
 * its state is stored before anything is shown, and answer files are published exactly once.
 * It is level-triggered: any hint about a run makes it re-read that run's `qa/` folder and bring
 * the store and the presenter in line with what is on disk.
 */
export function createBatchQueue(deps: BatchQueueDeps) {
  const { store, presenter, log } = deps;
  const now = deps.now ?? (() => new Date());
  const publish = deps.publish ?? publishFileNoClobber;
  const scheduler = createRunScheduler({
    sync: (runDir) => syncRun(runDir),
    log,
    concurrency: deps.concurrency,
    retryBaseMs: deps.retryBaseMs,
    closeGraceMs: deps.closeGraceMs,
  });
  const questions = createQuestionReader({
    now,
    settleMs: deps.settleMs ?? 1000,
    lookAgain: (runDir, ms) => scheduler.later(ms, runDir),
  });
  const readCurrent = questions.read;
  const shower = createRunShower({ store, presenter, questions, scheduler, put, log });
  const presentAll = shower.show;
  const finishSubmit = (record: BatchRecord) =>
    publishAnswers(record, { questions, publish, put, log });

  const nowIso = () => now().toISOString();
  const qaDir = (runDir: string) => path.join(runDir, 'qa');

  function activeRecord(runDir: string): BatchRecord | undefined {
    return store.forRun(runDir).find((r) => ACTIVE.includes(r.status));
  }

  async function put(record: BatchRecord): Promise<BatchRecord> {
    const next = { ...record, updatedAt: nowIso() };
    await store.put(next);
    return next;
  }

  /** Brings one run's records and messages in line with its `qa/` folder. */
  async function syncRun(runDir: string): Promise<void> {
    let names: string[] | undefined;
    try {
      names = await readdir(qaDir(runDir));
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
    if (names === undefined) {
      await closeGoneRun(runDir);
      return;
    }
    await advance(runDir, listQaFiles(names));
    await presentAll(runDir);
  }

  /**
   * The run's folder is gone: its open batch is closed, and once people have seen that, the
   * run is forgotten; its state file would otherwise be kept and loaded at every start.
   */
  async function closeGoneRun(runDir: string): Promise<void> {
    const active = activeRecord(runDir);
    if (active) {
      log.info({ runDir, seq: active.seq }, 'run folder removed; closing its open batch');
      await put({ ...active, status: 'run-removed' });
    }
    questions.forget(runDir);
    await presentAll(runDir);
    const records = store.forRun(runDir);
    if (records.length === 0) return;
    if (!shower.allShown(runDir)) return;
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
      await put({ ...record, status: 'answered-elsewhere', answeredAt: nowIso() });
      return false;
    }
    const read = await readCurrent(runDir, seq);
    if (read.kind === 'missing') {
      log.info({ runDir, seq }, 'question file deleted before it was answered; batch withdrawn');
      await put({ ...record, status: 'withdrawn' });
      return false;
    }
    if (read.kind === 'settling' || read.fingerprint === record.fingerprint) return true;
    if (read.kind === 'valid') {
      log.info({ runDir, seq }, 'question file rewritten; showing the new version');
      await put({ ...freshVersion(record), status: 'open', fingerprint: read.fingerprint });
    } else {
      log.warn({ runDir, seq, error: read.error }, 'question file rewritten and now malformed');
      await put({ ...freshVersion(record), status: 'malformed', fingerprint: read.fingerprint });
    }
    return true;
  }

  async function openRecord(
    runDir: string,
    seq: number,
    read: FileRead & { fingerprint: string },
    note: string | undefined,
  ): Promise<boolean> {
    const key = batchKey(runDir, seq);
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
    // Not awaited: if this is lost in a crash, the next start finds the file and opens it
    // again; waiting for the disk here would only delay the message people are waiting for.
    put({
      key,
      runDir,
      seq,
      fingerprint: read.fingerprint,
      status,
      drafts: {},
      createdAt: previous?.createdAt ?? at,
      updatedAt: at,
      ...(note ? { note } : {}),
      ...(previous?.presentation ? { presentation: previous.presentation } : {}),
    }).catch((err: unknown) => log.error({ err, runDir, seq }, 'could not save the new batch'));
    return true;
  }

  /** Finds an open record for a person's action, or says why there is none. */
  function openFor(key: string, revision: string) {
    const record = store.get(key);
    if (!record) return { kind: 'unknown' } as const;
    if (record.status !== 'open') return { kind: 'closed', status: record.status } as const;
    if (!record.fingerprint.startsWith(revision)) return { kind: 'out-of-date' } as const;
    return { kind: 'open', record } as const;
  }

  function runOf(key: string): string | undefined {
    return store.get(key)?.runDir;
  }

  /** Changes an open record under its run's lock, then shows the change. */
  async function updateOpen(
    key: string,
    revision: string,
    change: (record: BatchRecord) => BatchRecord,
  ): Promise<DraftOutcome> {
    const runDir = runOf(key);
    if (!runDir) return { kind: 'unknown' };
    return scheduler.exclusive(runDir, async () => {
      const found = openFor(key, revision);
      if (found.kind !== 'open') return found;
      const record = await put(change(found.record));
      await presentAll(runDir);
      return { kind: 'saved', record: store.get(key) ?? record };
    });
  }

  return {
    /** Feeds a watcher event; before `start` events are only collected. */
    notify(event: RunFsEvent) {
      scheduler.schedule(event.runDir);
      if (event.type === 'run-seen' && scheduler.started) {
        // chokidar lists a new folder before it watches it: a file renamed in between is
        // never reported, so look again once the watch is surely in place.
        for (const ms of NEW_FOLDER_RELIST_MS) scheduler.later(ms, event.runDir);
      }
    },

    /**
     * Starts syncing every run seen so far and every run the store knows: open batches are
     * resumed, and runs whose folder went while the relay was down are closed and forgotten.
     */
    start() {
      scheduler.start(new Set(store.all().map((record) => record.runDir)));
    },

    /** Resolves when no run is being synced and none is waiting (timers aside). */
    idle: () => scheduler.idle(),

    /** The record and its questions, for rendering and decoding a person's action. */
    async lookup(key: string) {
      const record = store.get(key);
      if (!record) return undefined;
      const batch = await questions.batchOf(record);
      return { record, batch };
    },

    /** Records one choice (undefined clears it) as soon as it is made. */
    saveDraft(
      key: string,
      input: { revision: string; questionId: string; answer: Answer | undefined },
    ): Promise<DraftOutcome> {
      return updateOpen(key, input.revision, (record) => {
        const drafts = { ...record.drafts };
        if (input.answer === undefined) delete drafts[input.questionId];
        else drafts[input.questionId] = input.answer;
        return { ...record, drafts };
      });
    },

    /** Records the text typed for an envelope question's choice (`''` clears it), like a draft. */
    saveFollowUp(
      key: string,
      input: { revision: string; questionId: string; text: string },
    ): Promise<DraftOutcome> {
      return updateOpen(key, input.revision, (record) => {
        const followUps = { ...record.followUps };
        if (input.text === '') delete followUps[input.questionId];
        else followUps[input.questionId] = input.text;
        return { ...record, followUps };
      });
    },

    /**
     * Records a hand-off of an open batch to `to` (who becomes its assignee); a claim on it
     * moves to `to` as well.
     */
    handOff(
      key: string,
      input: { revision: string; from: string; to: string; note?: string },
    ): Promise<DraftOutcome> {
      return updateOpen(key, input.revision, (record) =>
        withHandoff(record, { from: input.from, to: input.to, at: nowIso(), note: input.note }),
      );
    },

    /**
     * Changes an open batch's record, whatever its revision, under its run's lock (reminders
     * and escalation); `change` returning `undefined` leaves it as it is. Gives the stored
     * record, or `undefined` when the batch is not open (any more) or nothing changed.
     */
    async amendOpen(
      key: string,
      change: (record: BatchRecord) => BatchRecord | undefined,
    ): Promise<BatchRecord | undefined> {
      const runDir = runOf(key);
      if (!runDir) return undefined;
      return scheduler.exclusive(runDir, async () => {
        const record = store.get(key);
        if (record?.status !== 'open') return undefined;
        const changed = change(record);
        if (!changed) return undefined;
        const stored = await put(changed);
        await presentAll(runDir);
        return store.get(key) ?? stored;
      });
    },

    /** Marks who is answering an open batch (`by`), or clears the mark (`undefined`). */
    claim(key: string, input: { revision: string; by: string | undefined }): Promise<DraftOutcome> {
      return updateOpen(key, input.revision, (record) => {
        const { claimedBy: _, ...rest } = record;
        return input.by === undefined ? rest : { ...rest, claimedBy: input.by };
      });
    },

    /**
     * Closes an open envelope batch without answers: writes `cancelled.json` into its folder
     * for the waiting `ask`, then records who cancelled. No answer file is written.
     */
    async cancel(key: string, input: { revision: string; by: string }): Promise<CancelOutcome> {
      const runDir = runOf(key);
      if (!runDir) return { kind: 'unknown' };
      return scheduler.exclusive(runDir, async (): Promise<CancelOutcome> => {
        const found = openFor(key, input.revision);
        if (found.kind !== 'open') return found;
        const batch = await questions.batchOf(found.record);
        if (!batch) return { kind: 'out-of-date' };
        if (!isEnvelopeBatch(batch)) return { kind: 'not-cancellable' };
        const { seq } = found.record;
        const at = nowIso();
        const content = serializeCancellation({ seq, cancelledBy: input.by, cancelledAt: at });
        try {
          await writeFileAtomic(path.join(runDir, CANCELLED_FILE_NAME), content);
        } catch (err) {
          log.error({ err, runDir, seq }, 'could not write the cancellation');
          return {
            kind: 'write-failed',
            message: err instanceof Error ? err.message : String(err),
          };
        }
        log.info({ runDir, seq, by: input.by }, 'batch cancelled');
        const record = await put({
          ...found.record,
          status: 'cancelled',
          answeredBy: input.by,
          answeredAt: at,
        });
        await presentAll(runDir);
        return { kind: 'cancelled', record: store.get(key) ?? record };
      });
    },

    /** Validates the drafts (plus `answers`), publishes the answer file, then shows the result. */
    async submit(
      key: string,
      input: { revision: string; by: string; answers?: Record<string, Answer> },
    ): Promise<SubmitOutcome> {
      const runDir = runOf(key);
      if (!runDir) return { kind: 'unknown' };
      const outcome = await scheduler.exclusive(runDir, async (): Promise<SubmitOutcome> => {
        const found = openFor(key, input.revision);
        if (found.kind !== 'open') return found;
        // Read the file again: the agent may have rewritten it since the last event arrived.
        const read = await readCurrent(runDir, found.record.seq);
        if (read.kind !== 'valid' || read.fingerprint !== found.record.fingerprint) {
          scheduler.schedule(runDir);
          return { kind: 'out-of-date' };
        }
        const batch = read.batch;
        const drafts = { ...found.record.drafts, ...input.answers };
        const built = buildAnswerFile(batch, drafts);
        if (!built.ok) {
          const missing = batch.questions
            .filter((q) => drafts[q.id] === undefined)
            .map((q) => q.id);
          return { kind: 'incomplete', missing, problems: built.error.map((p) => p.message) };
        }
        const texts = found.record.followUps ?? {};
        const needText = isEnvelopeBatch(batch)
          ? questionsMissingText(batch.questions, drafts, texts)
          : [];
        if (needText.length > 0) return { kind: 'needs-text', questionIds: needText };
        const submitting = await put({
          ...found.record,
          drafts,
          status: 'submitting',
          answeredBy: input.by,
          answeredAt: nowIso(),
        });
        const result = await finishSubmit(submitting);
        await presentAll(runDir);
        return result;
      });
      scheduler.schedule(runDir);
      return outcome;
    },

    /** Stops timers and further syncs; waits for syncs under way, at most `closeGraceMs`. */
    close: () => scheduler.close(),
  };
}

/** A record for a rewritten question file: what belonged to the old version is dropped. */
function freshVersion(record: BatchRecord): BatchRecord {
  const {
    problem: _problem,
    followUps: _followUps,
    answeredBy: _by,
    answeredAt: _at,
    ...rest
  } = record;
  return { ...rest, drafts: {} };
}
