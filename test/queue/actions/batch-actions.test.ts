import assert from 'node:assert/strict';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { pino } from 'pino';
import { batchKey, revisionOf } from '../../../src/core/batch/batch-key.js';
import type { BatchRecord } from '../../../src/core/batch/batch-record.js';
import { parseCancellation } from '../../../src/core/envelope/ask-cancellation.js';
import { envelopeToBatch } from '../../../src/core/envelope/envelope-to-batch.js';
import { findEnvelope } from '../../../src/core/envelope/find-envelope.js';
import { idRecord } from '../../../src/core/protocol/questions/id-record.js';
import { createFolderGuard } from '../../../src/fs/folder-guard.js';
import { publishFileNoClobber } from '../../../src/fs/publish-file.js';
import type { CancelInput, SubmitInput } from '../../../src/queue/actions/action-inputs.js';
import { type BatchActions, createBatchActions } from '../../../src/queue/actions/batch-actions.js';
import { stampedChange } from '../../../src/queue/batch-queue.js';
import { publishAnswers } from '../../../src/queue/publish-answers.js';
import {
  createQuestionReader,
  type QuestionReader,
} from '../../../src/queue/runs/question-reader.js';
import type { RunOwners } from '../../../src/queue/runs/run-owners.js';
import { createRunScheduler, type RunScheduler } from '../../../src/queue/runs/run-scheduler.js';
import { openFileStateStore } from '../../../src/store/file-state-store.js';
import type { StateStore } from '../../../src/store/state-store.js';
import { jsonBlock, rateLimitQuestion } from '../../core/envelope/envelope-samples.js';
import { makeTempDir, sampleBatch, writeQuestionFile } from '../../support/temp-dir.js';

const log = pino({ level: process.env.TEST_LOG ?? 'silent' });
const ALICE = 'U0ALICE01';
const BOB = 'U0BOB0001';
const NODE = 'node-a';
const CLOCK = new Date('2025-03-01T10:00:00.000Z');

/** What another node's relay was asked to do, as an in-process stand-in for it. */
function otherRelay(questions: QuestionReader) {
  const asked: { kind: 'submit' | 'cancel'; key: string; input: SubmitInput | CancelInput }[] = [];
  const owners: RunOwners = {
    holds: (record) => (record.node ?? NODE) === NODE,
    batchOf: (record) => questions.batchOf(record),
    async submit(record, input) {
      asked.push({ kind: 'submit', key: record.key, input });
      return { kind: 'owner-slow', node: record.node ?? '?' };
    },
    async cancel(record, input) {
      asked.push({ kind: 'cancel', key: record.key, input });
      return { kind: 'owner-offline', node: record.node ?? '?' };
    },
  };
  return { owners, asked };
}

describe('batch actions', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let store: StateStore;
  let run: string;
  let scheduler: RunScheduler;
  let questions: QuestionReader;
  /** the runs the actions asked to show, in order */
  let shown: string[];
  /** the runs the actions asked to look at again */
  let synced: string[];

  beforeEach(async () => {
    ({ dir: root, cleanup } = await makeTempDir());
    run = path.join(root, 'runs', 'run-a');
    await mkdir(path.join(run, 'qa'), { recursive: true });
    store = await openFileStateStore(path.join(root, 'state'), { log });
    shown = [];
    synced = [];
    scheduler = createRunScheduler({
      sync: async (runDir) => {
        synced.push(runDir);
      },
      log,
    });
    scheduler.start([]);
    questions = createQuestionReader({
      now: () => CLOCK,
      log,
      settleMs: 50,
      askRoot: path.join(root, 'asks'),
      lookAgain: () => undefined,
    });
  });

  afterEach(async () => {
    await scheduler.close();
    await store.close();
    await cleanup();
  });

  /** The actions over the real store, scheduler, question reader and answer publishing. */
  function actionsWith(owners?: RunOwners): BatchActions {
    const change = stampedChange(store, () => CLOCK);
    const folders = createFolderGuard([path.join(root, 'runs'), path.join(root, 'asks')]);
    return createBatchActions({
      store,
      scheduler,
      questions,
      change,
      show: async (runDir) => {
        shown.push(runDir);
      },
      finishSubmit: (record) =>
        publishAnswers(record, { questions, publish: publishFileNoClobber, change, log }),
      assertWritable: folders.assertWritable,
      ...(owners ? { owners } : {}),
      log,
      now: () => CLOCK,
    });
  }

  /** Writes batch 1 of `runDir` and stores its open record, as the queue opens it. */
  async function openBatch(
    content: object = sampleBatch(1),
    runDir = run,
    extra: Partial<BatchRecord> = {},
  ): Promise<{ key: string; revision: string }> {
    await writeQuestionFile(runDir, 1, content);
    const read = await questions.read(runDir, 1);
    assert.ok(read.kind === 'valid');
    const key = batchKey(runDir, 1, extra.node);
    await store.put({
      key,
      runDir,
      seq: 1,
      fingerprint: read.fingerprint,
      status: 'open',
      drafts: idRecord(),
      createdAt: '2025-03-01T09:00:00.000Z',
      updatedAt: '2025-03-01T09:00:00.000Z',
      ...extra,
    });
    return { key, revision: revisionOf(read.fingerprint) };
  }

  test('a choice is saved on the record, stamped, and shown; one on an older version changes nothing', async () => {
    const actions = actionsWith();
    const { key, revision } = await openBatch();
    const saved = await actions.saveDraft(key, { revision, questionId: 'format', answer: 'CSV' });
    assert.equal(saved.kind, 'saved');
    assert.deepEqual({ ...store.get(key)?.drafts }, { format: 'CSV' });
    assert.equal(store.get(key)?.updatedAt, CLOCK.toISOString());
    assert.deepEqual(shown, [run]);

    const stale = await actions.saveDraft(key, {
      revision: 'deadbeef',
      questionId: 'format',
      answer: 'JSON',
    });
    assert.deepEqual(stale, { kind: 'out-of-date' });
    assert.deepEqual({ ...store.get(key)?.drafts }, { format: 'CSV' });
    assert.deepEqual(shown, [run], 'nothing changed: nothing to show');
    assert.deepEqual(
      await actions.saveDraft('no-such-batch', { revision, questionId: 'go', answer: true }),
      {
        kind: 'unknown',
      },
    );
  });

  test('of two people claiming at once only the first gets the batch; a hand-off moves the claim on', async () => {
    const actions = actionsWith();
    const { key, revision } = await openBatch();
    const [alice, bob] = await Promise.all([
      actions.claim(key, { revision, user: ALICE, release: false }),
      actions.claim(key, { revision, user: BOB, release: false }),
    ]);
    assert.equal(alice.kind, 'saved');
    assert.deepEqual(bob, { kind: 'claimed-by-other', by: ALICE });
    assert.equal(store.get(key)?.claimedBy, ALICE);

    const handed = await actions.handOff(key, { revision, from: ALICE, to: BOB, note: '  ' });
    assert.equal(handed.kind, 'saved');
    const record = store.get(key);
    assert.equal(record?.claimedBy, BOB);
    assert.equal(record?.assignee, BOB);
    assert.deepEqual(record?.handoffs, [{ from: ALICE, to: BOB, at: CLOCK.toISOString() }]);
  });

  test('the relay amends an open batch whatever its revision, and nothing once it is closed', async () => {
    const actions = actionsWith();
    const { key } = await openBatch();
    const amended = await actions.amendOpen(key, (r) => ({ ...r, reminders: 1 }));
    assert.equal(amended?.reminders, 1);
    assert.equal(await actions.amendOpen(key, () => undefined), undefined, 'left as it is');
    await store.update(key, (r) => ({ ...r, status: 'withdrawn' }));
    assert.equal(await actions.amendOpen(key, (r) => ({ ...r, reminders: 2 })), undefined);
    assert.equal(store.get(key)?.reminders, 1);
  });

  test('submit names the questions still unanswered and writes nothing', async () => {
    const actions = actionsWith();
    const { key, revision } = await openBatch();
    await actions.saveDraft(key, { revision, questionId: 'format', answer: 'JSON' });
    const outcome = await actions.submit(key, { revision, by: ALICE });
    assert.equal(outcome.kind, 'incomplete');
    assert.ok(outcome.kind === 'incomplete');
    assert.deepEqual(outcome.missing, ['targets', 'notes', 'go']);
    assert.deepEqual(await readdir(path.join(run, 'qa')), ['q-out-001.json']);
    assert.equal(store.get(key)?.status, 'open');
  });

  test("submit writes the drafts, filled by the screen's choices where there is none, and closes the batch", async () => {
    const actions = actionsWith();
    const { key, revision } = await openBatch();
    await actions.saveDraft(key, { revision, questionId: 'format', answer: 'CSV' });
    const outcome = await actions.submit(key, {
      revision,
      by: ALICE,
      unsaved: new Map<string, string | string[] | boolean>([
        ['format', 'JSON'],
        ['targets', ['web']],
        ['notes', 'none'],
        ['go', true],
      ]),
    });
    assert.equal(outcome.kind, 'answered');
    const file = JSON.parse(await readFile(path.join(run, 'qa', 'q-answers-001.json'), 'utf8'));
    assert.deepEqual(
      file.answers.map((a: { id: string; answer: unknown }) => [a.id, a.answer]),
      [
        ['format', 'CSV'],
        ['targets', ['web']],
        ['notes', 'none'],
        ['go', true],
      ],
    );
    assert.equal(store.get(key)?.status, 'answered');
    assert.equal(store.get(key)?.answeredBy, ALICE);
    assert.deepEqual(synced, [run], 'the run is looked at again for its next batch');
    assert.deepEqual(await actions.submit(key, { revision, by: BOB }), {
      kind: 'closed',
      status: 'answered',
    });
  });

  test('submit refuses a batch whose file was rewritten since it was shown', async () => {
    const actions = actionsWith();
    const { key, revision } = await openBatch();
    await writeQuestionFile(run, 1, sampleBatch(1, { context: 'rewritten' }));
    const outcome = await actions.submit(key, {
      revision,
      by: ALICE,
      tapped: { questionId: 'go', answer: true },
    });
    assert.deepEqual(outcome, { kind: 'out-of-date' });
    assert.deepEqual(await readdir(path.join(run, 'qa')), ['q-out-001.json']);
  });

  test("cancel writes ask's cancellation and closes the batch; an ordinary batch cannot be cancelled", async () => {
    const actions = actionsWith();
    const ordinary = await openBatch();
    assert.deepEqual(
      await actions.cancel(ordinary.key, { revision: ordinary.revision, by: ALICE }),
      {
        kind: 'not-cancellable',
      },
    );

    const scan = findEnvelope(jsonBlock({ openQuestions: [rateLimitQuestion] }));
    assert.ok(scan.kind === 'envelope');
    const ask = path.join(root, 'asks', 'ask-1');
    const asked = await openBatch(envelopeToBatch(scan.envelope), ask);
    const outcome = await actions.cancel(asked.key, { revision: asked.revision, by: ALICE });
    assert.equal(outcome.kind, 'cancelled');
    const cancellation = parseCancellation(
      await readFile(path.join(ask, 'cancelled.json'), 'utf8'),
    );
    assert.deepEqual(cancellation, {
      seq: 1,
      cancelledBy: ALICE,
      cancelledAt: CLOCK.toISOString(),
    });
    assert.equal(store.get(asked.key)?.status, 'cancelled');
    assert.deepEqual(shown, [ask]);
  });

  test("a batch of another machine is submitted and cancelled by its own relay, never from this one's files", async () => {
    const { owners, asked } = otherRelay(questions);
    const actions = actionsWith(owners);
    const { key, revision } = await openBatch(sampleBatch(1), run, { node: 'node-b' });
    const looked = await actions.lookup(key);
    assert.equal(looked?.batch?.questions.length, 4, 'its questions, as its relay shared them');

    assert.deepEqual(await actions.submit(key, { revision, by: ALICE }), {
      kind: 'owner-slow',
      node: 'node-b',
    });
    assert.deepEqual(await actions.cancel(key, { revision, by: BOB }), {
      kind: 'owner-offline',
      node: 'node-b',
    });
    assert.deepEqual(
      asked.map((a) => [a.kind, a.key, a.input.by]),
      [
        ['submit', key, ALICE],
        ['cancel', key, BOB],
      ],
    );
    assert.deepEqual(await readdir(path.join(run, 'qa')), ['q-out-001.json']);
    assert.deepEqual(await actions.submit(key, { revision: 'deadbeef', by: ALICE }), {
      kind: 'out-of-date',
    });
    assert.equal(asked.length, 2, 'a stale Submit is refused here, not sent on');

    await actions.saveDraft(key, { revision, questionId: 'go', answer: true });
    assert.deepEqual(shown, [], "another machine's batch is shown by its own relay");
    assert.deepEqual({ ...store.get(key)?.drafts }, { go: true });
  });

  test('a change waits for the run: nothing is saved while a sync of the run is under way', async () => {
    const actions = actionsWith();
    const { key, revision } = await openBatch();
    let release!: () => void;
    const syncing = scheduler.exclusive(
      run,
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    const saving = actions.saveDraft(key, { revision, questionId: 'go', answer: false });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual({ ...store.get(key)?.drafts }, {}, 'not before the sync is done');
    release();
    await syncing;
    assert.equal((await saving).kind, 'saved');
    assert.deepEqual({ ...store.get(key)?.drafts }, { go: false });
  });
});

test('batch actions: a cancellation is not written into a folder the folder guard refuses', async () => {
  const { dir, cleanup } = await makeTempDir();
  const store = await openFileStateStore(path.join(dir, 'state'), { log });
  const scheduler = createRunScheduler({ sync: async () => undefined, log });
  scheduler.start([]);
  try {
    const asks = path.join(dir, 'asks');
    const ask = path.join(asks, 'ask-1');
    const questions = createQuestionReader({
      now: () => CLOCK,
      log,
      settleMs: 50,
      askRoot: asks,
      lookAgain: () => undefined,
    });
    const scan = findEnvelope(jsonBlock({ openQuestions: [rateLimitQuestion] }));
    assert.ok(scan.kind === 'envelope');
    await writeQuestionFile(ask, 1, envelopeToBatch(scan.envelope));
    const read = await questions.read(ask, 1);
    assert.ok(read.kind === 'valid');
    const key = batchKey(ask, 1);
    await store.put({
      key,
      runDir: ask,
      seq: 1,
      fingerprint: read.fingerprint,
      status: 'open',
      drafts: idRecord(),
      createdAt: CLOCK.toISOString(),
      updatedAt: CLOCK.toISOString(),
    });
    const change = stampedChange(store, () => CLOCK);
    // the guard watches only another folder: ask's folder lies outside it
    const folders = createFolderGuard([path.join(dir, 'runs')]);
    const actions = createBatchActions({
      store,
      scheduler,
      questions,
      change,
      show: async () => undefined,
      finishSubmit: (record) =>
        publishAnswers(record, { questions, publish: publishFileNoClobber, change, log }),
      assertWritable: folders.assertWritable,
      log,
      now: () => CLOCK,
    });
    const outcome = await actions.cancel(key, {
      revision: revisionOf(read.fingerprint),
      by: ALICE,
    });
    assert.equal(outcome.kind, 'write-failed');
    assert.deepEqual(await readdir(ask), ['qa']);
    assert.equal(store.get(key)?.status, 'open');
  } finally {
    await scheduler.close();
    await store.close();
    await cleanup();
  }
});
