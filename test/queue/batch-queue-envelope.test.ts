import assert from 'node:assert/strict';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { pino } from 'pino';
import type { BatchRecord } from '../../src/core/batch/batch-record.js';
import { parseCancellation } from '../../src/core/envelope/ask-cancellation.js';
import { envelopeToBatch } from '../../src/core/envelope/envelope-to-batch.js';
import { findEnvelope } from '../../src/core/envelope/find-envelope.js';
import { OTHER_OPTION } from '../../src/core/envelope/other-option.js';
import { type BatchQueue, createBatchQueue } from '../../src/queue/batch-queue.js';
import type { Presenter } from '../../src/queue/presenter.js';
import { openFileStateStore } from '../../src/store/file-state-store.js';
import type { StateStore } from '../../src/store/state-store.js';
import { jsonBlock, rateLimitQuestion, reposQuestion } from '../core/envelope/envelope-samples.js';
import { makeTempDir, sampleBatch, writeQuestionFile } from '../support/temp-dir.js';

const log = pino({ level: process.env.TEST_LOG ?? 'silent' });

/** A presenter that notes each record it is asked to show. */
function recordingPresenter() {
  const shown: BatchRecord[] = [];
  const presenter: Presenter = {
    async sync(record) {
      shown.push(structuredClone(record));
      return { channel: 'C1', ts: (record.presentation?.ts as string | undefined) ?? 'ts-1' };
    },
    tellRefused: async () => false,
  };
  return { presenter, shown };
}

const envelopeBatch = () => {
  const scan = findEnvelope(jsonBlock({ openQuestions: [rateLimitQuestion, reposQuestion] }));
  assert.ok(scan.kind === 'envelope');
  return envelopeToBatch(scan.envelope);
};

describe('batch queue: envelope batches', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let store: StateStore;
  let run: string;
  const asks = () => path.join(root, 'state', 'asks');

  beforeEach(async () => {
    ({ dir: root, cleanup } = await makeTempDir());
    run = path.join(root, 'state', 'asks', 'ask-1');
    await mkdir(path.join(run, 'qa'), { recursive: true });
    store = await openFileStateStore(path.join(root, 'state'), { log });
  });

  afterEach(async () => {
    await store.close();
    await cleanup();
  });

  /** The queue under test over `store`; it shows edits at once: these tests look at every change shown. */
  const queueOver = (presenter: Presenter) =>
    createBatchQueue({
      store,
      updateEveryMs: 0,
      presenter,
      log,
      settleMs: 50,
      retryBaseMs: 20,
      askRoot: asks(),
      roots: [asks(), path.join(root, 'runs')],
    });

  async function open(presenter: Presenter, batch: object = envelopeBatch(), runDir = run) {
    run = runDir;
    await writeQuestionFile(run, 1, batch);
    const queue = queueOver(presenter);
    queue.notify({ type: 'qa-file', runDir: run, name: 'q-out-001.json' });
    queue.start();
    await queue.idle();
    const [record] = store.forRun(run);
    assert.ok(record);
    return { queue, key: record.key, revision: record.fingerprint.slice(0, 8) };
  }

  /** Closes `queue` and the store and opens both again, as a relay restarting does; `seen` files are notified first. */
  async function restart(queue: BatchQueue, presenter: Presenter, ...seen: string[]) {
    await queue.close();
    await store.close();
    store = await openFileStateStore(path.join(root, 'state'), { log });
    const again = queueOver(presenter);
    for (const name of seen) again.notify({ type: 'qa-file', runDir: run, name });
    again.start();
    await again.idle();
    return again;
  }

  test('follow-up text is saved like a draft, shown, kept across a restart, and written', async () => {
    const p = recordingPresenter();
    let { queue, key, revision } = await open(p.presenter);
    await queue.actions.saveDraft(key, { revision, questionId: 'q2', answer: 'Multi-repo' });
    const saved = await queue.actions.saveFollowUp(key, {
      revision,
      questionId: 'q2',
      text: 'web: /abs/web',
    });
    assert.equal(saved.kind, 'saved');
    assert.deepEqual(p.shown.at(-1)?.followUps, { q2: 'web: /abs/web' }, 'shown at once');
    queue = await restart(queue, p.presenter);
    assert.deepEqual({ ...store.get(key)?.followUps }, { q2: 'web: /abs/web' });

    const outcome = await queue.actions.submit(key, {
      revision,
      by: 'U1',
      unsaved: new Map(Object.entries({ q1: OTHER_OPTION })),
    });
    assert.deepEqual(outcome, { kind: 'needs-text', questionIds: ['q1'] });
    await queue.actions.saveFollowUp(key, { revision, questionId: 'q1', text: 'Leaky bucket' });
    const done = await queue.actions.submit(key, {
      revision,
      by: 'U1',
      unsaved: new Map(Object.entries({ q1: OTHER_OPTION })),
    });
    assert.equal(done.kind, 'answered');
    const written = JSON.parse(await readFile(path.join(run, 'qa', 'q-answers-001.json'), 'utf8'));
    assert.deepEqual(Object.keys(written), [
      'seq',
      'answers',
      'questions',
      'followUpText',
      'answeredBy',
    ]);
    assert.deepEqual(written.followUpText, { q1: 'Leaky bucket', q2: 'web: /abs/web' });
    assert.equal(written.answeredBy, 'U1', 'who submitted, for whoever asked');
    assert.deepEqual(
      written.answers.map((a: { answer: unknown }) => a.answer),
      [OTHER_OPTION, 'Multi-repo'],
    );
    await queue.close();
  });

  test('Cancel writes cancelled.json, closes the batch, and a restart does not reopen it', async () => {
    const p = recordingPresenter();
    let { queue, key, revision } = await open(p.presenter);
    const outcome = await queue.actions.cancel(key, { revision, by: 'U0ALICE01' });
    assert.equal(outcome.kind, 'cancelled');
    const record = store.get(key) as BatchRecord;
    assert.equal(record.status, 'cancelled');
    assert.equal(record.answeredBy, 'U0ALICE01');
    const cancellation = parseCancellation(
      await readFile(path.join(run, 'cancelled.json'), 'utf8'),
    );
    assert.deepEqual(cancellation, {
      seq: 1,
      cancelledBy: 'U0ALICE01',
      cancelledAt: record.answeredAt,
    });
    assert.deepEqual((await readdir(path.join(run, 'qa'))).sort(), ['q-out-001.json']);
    assert.equal(p.shown.at(-1)?.status, 'cancelled');
    const again = await queue.actions.cancel(key, { revision, by: 'U0ALICE01' });
    assert.deepEqual(again, { kind: 'closed', status: 'cancelled' });
    const later = recordingPresenter();
    queue = await restart(queue, later.presenter, 'q-out-001.json');
    assert.equal(store.get(key)?.status, 'cancelled');
    assert.deepEqual(later.shown, [], 'not shown again');
    await queue.close();
  });

  test('ordinary batches cannot be cancelled and get no followUpText', async () => {
    const p = recordingPresenter();
    const { queue, key, revision } = await open(p.presenter, sampleBatch(1));
    assert.deepEqual(await queue.actions.cancel(key, { revision, by: 'U1' }), {
      kind: 'not-cancellable',
    });
    const done = await queue.actions.submit(key, {
      revision,
      by: 'U1',
      unsaved: new Map(Object.entries({ format: 'CSV', targets: ['web'], notes: 'n', go: true })),
    });
    assert.equal(done.kind, 'answered');
    const written = JSON.parse(await readFile(path.join(run, 'qa', 'q-answers-001.json'), 'utf8'));
    assert.deepEqual(Object.keys(written), ['seq', 'answers', 'questions']);
    await queue.close();
  });

  test('a q-out outside the ask folders that claims the envelope source is an ordinary batch', async () => {
    const p = recordingPresenter();
    const agentRun = path.join(root, 'runs', 'run-a');
    const { queue, key, revision } = await open(p.presenter, envelopeBatch(), agentRun);
    assert.deepEqual(await queue.actions.cancel(key, { revision, by: 'U1' }), {
      kind: 'not-cancellable',
    });
    await queue.actions.saveFollowUp(key, { revision, questionId: 'q2', text: 'typed anyway' });
    const done = await queue.actions.submit(key, {
      revision,
      by: 'U1',
      unsaved: new Map(Object.entries({ q1: OTHER_OPTION, q2: 'Multi-repo' })),
    });
    assert.equal(done.kind, 'answered', 'no typed text is asked for');
    const written = JSON.parse(
      await readFile(path.join(agentRun, 'qa', 'q-answers-001.json'), 'utf8'),
    );
    assert.deepEqual(Object.keys(written), ['seq', 'answers', 'questions']);
    assert.equal(written.questions[0].header, 'Rate limit', 'its extra fields are echoed as read');
    await queue.close();
  });
});
