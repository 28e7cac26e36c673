import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { CANCELLED_FILE_NAME, serializeCancellation } from '../core/envelope/ask-cancellation.js';
import {
  followUpTextFor,
  isEnvelopeBatch,
  questionsMissingText,
} from '../core/envelope/envelope-batch.js';
import type { EnvelopeAnswerExtras } from '../core/envelope/follow-up-text.js';
import { buildAnswerFile, serializeAnswerFile } from '../core/protocol/build-answer-file.js';
import { parseAnswerFile } from '../core/protocol/parse-answer-file.js';
import { parseQuestionFile } from '../core/protocol/parse-question-file.js';
import type { ProtocolError } from '../core/protocol/protocol-error.js';
import { answerFileName, questionFileName } from '../core/protocol/qa-file-names.js';
import type { Answer, AnswerFile, QuestionBatch } from '../core/protocol/question.js';
import { batchKey, fingerprintOf } from '../core/queue/batch-key.js';
import {
  describeGap,
  listQaFiles,
  missingBefore,
  nextUnansweredSeq,
  type QaListing,
} from '../core/queue/qa-listing.js';
import { publishFileNoClobber } from '../fs/publish-file.js';
import { type ProtocolFileRead, readProtocolFile } from '../fs/read-protocol-file.js';
import type { RunFsEvent } from '../fs/run-events.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import type { BatchRecord, BatchStatus, StateStore } from '../store/batch-record.js';
import { createKeyedLock, createLimiter } from './keyed-lock.js';
import type { PresentContext, Presenter } from './presenter.js';
import { withHandoff } from './with-handoff.js';

/** When to list a newly seen run folder again (see `notify`). */
const NEW_FOLDER_RELIST_MS = [50, 500] as const;

/** Statuses of the one batch per run that is in front of people. */
const ACTIVE: readonly BatchStatus[] = ['open', 'submitting', 'malformed'];

/** What reading the current question file found. */
type FileRead =
  | { kind: 'missing' }
  | { kind: 'valid'; batch: QuestionBatch; fingerprint: string }
  | { kind: 'malformed'; error: ProtocolError; fingerprint: string }
  | { kind: 'settling' };

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

export interface BatchQueueDeps {
  store: StateStore;
  presenter: Presenter;
  log: Logger;
  now?: () => Date;
  /** How long a question file must stay unparseable, unchanged, before it is reported malformed. */
  settleMs?: number;
  /** How many runs are synced at once. */
  concurrency?: number;
  /** First delay before showing a batch again after the presenter failed; doubles up to a minute. */
  retryBaseMs?: number;
  /** Publishes an answer file without overwriting one (the real one unless a test passes another). */
  publish?: typeof publishFileNoClobber;
  /**
   * How long `close` waits for syncs under way. A sync can be stuck retrying an unreachable
   * Slack; stopping must not wait for that, and whatever it did not finish is redone at start.
   */
  closeGraceMs?: number;
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
  const settleMs = deps.settleMs ?? 1000;
  const retryBaseMs = deps.retryBaseMs ?? 1000;
  const closeGraceMs = deps.closeGraceMs ?? 5000;
  const publish = deps.publish ?? publishFileNoClobber;
  const lock = createKeyedLock();
  const limit = createLimiter(deps.concurrency ?? 8);

  /** Last valid read of each run's current batch, so clicks don't re-read the file. */
  const batches = new Map<string, { fingerprint: string; batch: QuestionBatch }>();
  /** Unparseable files waiting to stop changing, by question file path. */
  const unsettled = new Map<string, { fingerprint: string; since: number }>();
  const runs = new Map<string, { running: boolean; again: boolean }>();
  const timers = new Set<NodeJS.Timeout>();
  const retries = new Map<string, number>();
  const pending = new Set<string>();
  let started = false;
  let closed = false;
  let busy = 0;
  let idleWaiters: (() => void)[] = [];

  const nowIso = () => now().toISOString();
  const qaDir = (runDir: string) => path.join(runDir, 'qa');
  const questionPath = (runDir: string, seq: number) =>
    path.join(qaDir(runDir), questionFileName(seq));

  function activeRecord(runDir: string): BatchRecord | undefined {
    return store.forRun(runDir).find((r) => ACTIVE.includes(r.status));
  }

  function settleIdle() {
    if (busy > 0 || pending.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function later(ms: number, runDir: string) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      schedule(runDir);
    }, ms);
    timer.unref();
    timers.add(timer);
  }

  /** Marks a run for a re-sync; runs are synced one at a time each, several runs at once. */
  function schedule(runDir: string) {
    if (closed) return;
    if (!started) {
      pending.add(runDir);
      return;
    }
    const state = runs.get(runDir) ?? { running: false, again: false };
    runs.set(runDir, state);
    if (state.running) {
      state.again = true;
      return;
    }
    state.running = true;
    busy += 1;
    void (async () => {
      do {
        state.again = false;
        try {
          // a sync still waiting for its turn when the queue closes never starts
          await limit(async () => {
            if (!closed) await lock.run(runDir, () => syncRun(runDir));
          });
        } catch (err) {
          if (closed) {
            log.debug({ err, runDir }, 'sync ended by stopping');
          } else {
            log.error({ err, runDir }, 'could not sync run; will try again');
            later(retryDelay(runDir), runDir);
          }
        }
      } while (state.again && !closed);
      state.running = false;
      runs.delete(runDir);
      busy -= 1;
      settleIdle();
    })();
  }

  function retryDelay(runDir: string): number {
    const attempt = (retries.get(runDir) ?? 0) + 1;
    retries.set(runDir, attempt);
    return Math.min(retryBaseMs * 2 ** (attempt - 1), 60_000);
  }

  async function readCurrent(runDir: string, seq: number): Promise<FileRead> {
    const file = questionPath(runDir, seq);
    let read: ProtocolFileRead;
    try {
      read = await readProtocolFile(file);
    } catch (err) {
      if (isMissing(err)) return { kind: 'missing' };
      throw err;
    }
    if (read.kind === 'missing') return { kind: 'missing' };
    if (read.kind === 'refused') {
      // A FIFO, symlink, folder or huge file in place of a question file: say so, never read it.
      return {
        kind: 'malformed',
        error: refusal(file, read.reason),
        fingerprint: `refused:${read.reason}`,
      };
    }
    const bytes = read.bytes;
    const fingerprint = fingerprintOf(bytes);
    const cached = batches.get(runDir);
    if (cached?.fingerprint === fingerprint && cached.batch.seq === seq) {
      return { kind: 'valid', batch: cached.batch, fingerprint };
    }
    const parsed = parseQuestionFile(bytes.toString('utf8'), file);
    if (parsed.ok) {
      unsettled.delete(file);
      batches.set(runDir, { fingerprint, batch: parsed.value });
      return { kind: 'valid', batch: parsed.value, fingerprint };
    }
    // A file being written in place is unparseable for a moment; wait until it stops changing.
    const seen = unsettled.get(file);
    const at = now().getTime();
    if (seen?.fingerprint === fingerprint && at - seen.since >= settleMs) {
      return { kind: 'malformed', error: parsed.error, fingerprint };
    }
    if (seen?.fingerprint !== fingerprint) unsettled.set(file, { fingerprint, since: at });
    later(settleMs, runDir);
    return { kind: 'settling' };
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
      const active = activeRecord(runDir);
      if (active) {
        log.info({ runDir, seq: active.seq }, 'run folder removed; closing its open batch');
        await put({ ...active, status: 'run-removed' });
      }
      batches.delete(runDir);
    } else {
      await advance(runDir, listQaFiles(names));
    }
    await presentAll(runDir);
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

  /** Calls the presenter for every record of the run whose visible state is not shown yet. */
  async function presentAll(runDir: string): Promise<void> {
    let failed: { err: unknown; seq: number } | undefined;
    for (const record of store.forRun(runDir)) {
      const signature = visibleSignature(record);
      if (record.presentation?.shown === signature) continue;
      const ctx = await contextFor(record);
      try {
        const presentation = await presenter.sync(record, ctx, async (partial) => {
          const current = store.get(record.key);
          if (current) await put({ ...current, presentation: { ...partial } });
        });
        const current = store.get(record.key);
        if (!current) continue;
        await put({ ...current, presentation: { ...presentation, shown: signature } });
        retries.delete(runDir);
      } catch (err) {
        // Keep going: one stuck message (say, a final edit) must not hold back the next batch.
        failed ??= { err, seq: record.seq };
      }
    }
    if (failed) {
      const delay = retryDelay(runDir);
      log.warn(
        { err: failed.err, runDir, seq: failed.seq, retryInMs: delay },
        'could not show the batch to people; keeping it and trying again',
      );
      later(delay, runDir);
    }
  }

  async function contextFor(record: BatchRecord) {
    const questionFile = questionPath(record.runDir, record.seq);
    const ctx: PresentContext = { questionFile };
    const cached = batches.get(record.runDir);
    if (cached && cached.batch.seq === record.seq) {
      ctx.batch = cached.batch;
    } else if (record.status !== 'withdrawn' && record.status !== 'run-removed') {
      const read = await readQuietly(questionFile);
      if (read?.ok) ctx.batch = read.value;
      else if (read) ctx.error = read.error;
    }
    if (record.status === 'answered-elsewhere') {
      const file = path.join(qaDir(record.runDir), answerFileName(record.seq));
      const text = await readQuietlyText(file);
      const parsed = text === undefined ? undefined : parseAnswerFile(text, file, ctx.batch);
      if (parsed?.ok) {
        ctx.answersElsewhere = Object.fromEntries(
          parsed.value.answers.map((a) => [a.id, a.answer]),
        );
      }
    }
    if (record.status === 'malformed') {
      const read = await readQuietly(questionFile);
      if (read && !read.ok) ctx.error = read.error;
      delete ctx.batch;
    }
    return ctx;
  }

  async function readQuietly(file: string) {
    try {
      const read = await readProtocolFile(file);
      if (read.kind === 'missing') return undefined;
      if (read.kind === 'refused') return { ok: false, error: refusal(file, read.reason) } as const;
      return parseQuestionFile(read.bytes.toString('utf8'), file);
    } catch {
      return undefined;
    }
  }

  async function batchFor(record: BatchRecord): Promise<QuestionBatch | undefined> {
    const cached = batches.get(record.runDir);
    if (cached?.fingerprint === record.fingerprint) return cached.batch;
    const read = await readCurrent(record.runDir, record.seq);
    return read.kind === 'valid' && read.fingerprint === record.fingerprint
      ? read.batch
      : undefined;
  }

  /** Publishes the answer file of a `submitting` record, or learns that someone else did. */
  async function finishSubmit(record: BatchRecord): Promise<SubmitOutcome> {
    const batch = await batchFor(record);
    const built = batch ? buildAnswerFile(batch, record.drafts) : undefined;
    if (!batch || !built?.ok) {
      // The questions changed or vanished under a crash: nothing valid to publish. If the
      // answer file is there, it is ours from before the crash.
      const published =
        (await readQuietlyText(path.join(qaDir(record.runDir), answerFileName(record.seq)))) !==
        undefined;
      const status: BatchStatus = published ? 'answered' : batch ? 'open' : 'withdrawn';
      const reopened = await put({ ...record, status });
      return { kind: 'closed', status: reopened.status };
    }
    const content = serializeAnswerFile(withFollowUpText(batch, built.value as AnswerFile, record));
    const dir = qaDir(record.runDir);
    const name = answerFileName(record.seq);
    let outcome: 'published' | 'exists';
    try {
      outcome = await publish(dir, name, content);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.error({ err, runDir: record.runDir, seq: record.seq }, 'could not write answer file');
      await put({ ...record, status: 'open', problem: message });
      return { kind: 'write-failed', message };
    }
    if (outcome === 'exists' && (await readQuietlyText(path.join(dir, name))) === content) {
      outcome = 'published'; // our own write from before a crash
    }
    const { problem: _, ...rest } = record;
    if (outcome === 'published') {
      log.info(
        { runDir: record.runDir, seq: record.seq, by: record.answeredBy },
        'answers written',
      );
      const done = await put({ ...rest, status: 'answered' });
      return { kind: 'answered', record: done };
    }
    log.info({ runDir: record.runDir, seq: record.seq }, 'another provider answered first');
    const done = await put({ ...rest, status: 'answered-elsewhere' });
    return { kind: 'answered-elsewhere', record: done };
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
    return lock.run(runDir, async () => {
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
      schedule(event.runDir);
      if (event.type === 'run-seen' && started) {
        // chokidar lists a new folder before it watches it: a file renamed in between is
        // never reported, so look again once the watch is surely in place.
        for (const ms of NEW_FOLDER_RELIST_MS) later(ms, event.runDir);
      }
    },

    /** Starts syncing: every run seen so far and every run with a batch in the store. */
    start() {
      started = true;
      for (const record of store.all()) {
        if (
          ACTIVE.includes(record.status) ||
          record.presentation?.shown !== visibleSignature(record)
        ) {
          pending.add(record.runDir);
        }
      }
      const first = [...pending];
      pending.clear();
      for (const runDir of first) schedule(runDir);
      settleIdle();
    },

    /** Resolves when no run is being synced and none is waiting (timers aside). */
    idle(): Promise<void> {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      });
    },

    /** The record and its questions, for rendering and decoding a person's action. */
    async lookup(key: string) {
      const record = store.get(key);
      if (!record) return undefined;
      const batch = await batchFor(record);
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
      return lock.run(runDir, async () => {
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
      return lock.run(runDir, async (): Promise<CancelOutcome> => {
        const found = openFor(key, input.revision);
        if (found.kind !== 'open') return found;
        const batch = await batchFor(found.record);
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
      const outcome = await lock.run(runDir, async (): Promise<SubmitOutcome> => {
        const found = openFor(key, input.revision);
        if (found.kind !== 'open') return found;
        // Read the file again: the agent may have rewritten it since the last event arrived.
        const read = await readCurrent(runDir, found.record.seq);
        if (read.kind !== 'valid' || read.fingerprint !== found.record.fingerprint) {
          schedule(runDir);
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
      schedule(runDir);
      return outcome;
    },

    /** Stops timers and further syncs; waits for syncs under way, at most `closeGraceMs`. */
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      pending.clear(); // runs seen but never started: nothing is running for them
      let grace: NodeJS.Timeout | undefined;
      const drained = await Promise.race([
        new Promise<boolean>((resolve) => {
          idleWaiters.push(() => resolve(true));
          settleIdle();
        }),
        new Promise<boolean>((resolve) => {
          grace = setTimeout(() => resolve(false), closeGraceMs);
        }),
      ]);
      clearTimeout(grace);
      if (!drained) {
        log.warn(
          { runs: [...runs.keys()], waitedMs: closeGraceMs },
          'stopping while these runs still wait on Slack; what they did not finish is done again at the next start',
        );
      }
    },
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

/** What a record looks like to people; when it changes, the presenter is called. */
function visibleSignature(record: BatchRecord): string {
  // follow-up text only counts when there is some, so older signatures stay valid
  const typed = record.followUps ? `|${JSON.stringify(record.followUps)}` : '';
  // likewise the team fields: records without hand-offs or claims keep their old signature
  const team =
    record.handoffs || record.claimedBy
      ? `|${JSON.stringify([record.handoffs ?? [], record.claimedBy ?? ''])}`
      : '';
  return `${record.status}|${record.fingerprint}|${JSON.stringify(record.drafts)}|${record.problem ?? ''}${typed}${team}`;
}

/** Envelope batches carry the text people typed in an extra top-level `followUpText` field. */
function withFollowUpText(
  batch: QuestionBatch,
  file: AnswerFile,
  record: BatchRecord,
): AnswerFile & EnvelopeAnswerExtras {
  if (!isEnvelopeBatch(batch)) return file;
  const followUpText = followUpTextFor(batch.questions, record.drafts, record.followUps ?? {});
  return { ...file, followUpText };
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  // EISDIR: a folder with a protocol file's name holds no batch
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

/** Why a question file is not read at all, as a protocol error people can act on. */
function refusal(file: string, reason: string): ProtocolError {
  return { file, problems: [{ path: '', message: `the relay will not read it: ${reason}` }] };
}

/** A protocol file's text, or undefined when it is missing, refused or unreadable. */
async function readQuietlyText(file: string): Promise<string | undefined> {
  try {
    const read = await readProtocolFile(file);
    return read.kind === 'ok' ? read.bytes.toString('utf8') : undefined;
  } catch {
    return undefined;
  }
}
