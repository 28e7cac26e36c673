import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { type Logger, pino } from 'pino';
import type { BatchRecord } from '../../src/core/batch/batch-record.js';
import type { Answer } from '../../src/core/protocol/questions/question.js';
import { createBatchQueue } from '../../src/queue/batch-queue.js';
import { type PresentContext, type Presenter, PresentRefused } from '../../src/queue/presenter.js';
import { openFileStateStore } from '../../src/store/file-state-store.js';
import type { StateStore } from '../../src/store/state-store.js';
import { makeTempDir, sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const log = pino({ level: process.env.TEST_LOG ?? 'silent' });

/** A presenter that remembers what it was asked to show; `failures` makes the next calls throw. */
function recordingPresenter() {
  const shown: {
    key: string;
    seq: number;
    status: string;
    drafts: unknown;
    ctx: PresentContext;
  }[] = [];
  let failures = 0;
  let posts = 0;
  let attempts = 0;
  const refusing = new Set<number>();
  const told: { seq: number; code: string; questionFile: string }[] = [];
  const presenter: Presenter = {
    async sync(record: BatchRecord, ctx: PresentContext) {
      attempts += 1;
      if (failures > 0) {
        failures -= 1;
        throw new Error('slack is down');
      }
      if (refusing.has(record.seq)) throw new PresentRefused('msg_blocks_too_long', 'shorten it');
      shown.push({
        key: record.key,
        seq: record.seq,
        status: record.status,
        drafts: record.drafts,
        ctx,
      });
      const ts = (record.presentation?.ts as string | undefined) ?? `ts-${++posts}`;
      return { channel: 'C1', ts };
    },
    async tellRefused(record, refusal, questionFile) {
      told.push({ seq: record.seq, code: refusal.code, questionFile });
      return true;
    },
  };
  return {
    presenter,
    shown,
    told,
    attempts: () => attempts,
    failNext(n: number) {
      failures = n;
    },
    /** Batch `seq` is refused for good until `accept(seq)`. */
    refuse: (seq: number) => refusing.add(seq),
    accept: (seq: number) => refusing.delete(seq),
    posts: () => posts,
    last: (seq: number) => shown.filter((s) => s.seq === seq).at(-1),
  };
}

describe('batch queue', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let store: StateStore;
  let run: string;

  beforeEach(async () => {
    ({ dir: root, cleanup } = await makeTempDir());
    run = path.join(root, 'runs', 'run-a');
    await mkdir(path.join(run, 'qa'), { recursive: true });
    store = await openFileStateStore(path.join(root, 'state'), { log });
  });

  afterEach(async () => {
    await store.close();
    await cleanup();
  });

  function start(
    presenter: Presenter,
    opts: { settleMs?: number; refusedRetryMs?: number; log?: Logger } = {},
  ) {
    const queue = createBatchQueue({
      store,
      // edits at once: these tests look at every change shown
      updateEveryMs: 0,
      presenter,
      log: opts.log ?? log,
      roots: [path.join(root, 'runs')],
      settleMs: opts.settleMs ?? 50,
      retryBaseMs: 20,
      ...(opts.refusedRetryMs ? { refusedRetryMs: opts.refusedRetryMs } : {}),
    });
    return queue;
  }

  const touch = (queue: ReturnType<typeof start>, runDir = run) =>
    queue.notify({ type: 'qa-file', runDir, name: 'q-out-001.json' });

  /** A queue told of `run` and started, once it has nothing more to do. */
  async function startIdle(presenter: Presenter, opts: Parameters<typeof start>[1] = {}) {
    const queue = start(presenter, opts);
    touch(queue);
    queue.start();
    await queue.idle();
    return queue;
  }

  /**
   * Writes batch 1 of `run` (`firstBatch`, the sample unless given) and of a second run, run-b,
   * then starts a queue told of both.
   */
  async function startTwoRuns(
    presenter: Presenter,
    opts: Parameters<typeof start>[1] = {},
    firstBatch: Parameters<typeof writeQuestionFile>[2] = sampleBatch(1),
  ) {
    const other = path.join(root, 'runs', 'run-b');
    await writeQuestionFile(run, 1, firstBatch);
    await writeQuestionFile(other, 1, sampleBatch(1));
    const queue = start(presenter, opts);
    touch(queue);
    touch(queue, other);
    queue.start();
    return { queue, other };
  }

  /** The key and current revision of the first batch shown. */
  const firstShown = (shown: readonly { key: string }[]) => {
    const key = shown[0]?.key as string;
    return { key, revision: store.get(key)?.fingerprint.slice(0, 8) as string };
  };

  /** Batch 1 of `run`, shown by an idle queue: the presenter, the queue, the batch's key and revision. */
  async function showFirstBatch() {
    const p = recordingPresenter();
    await writeQuestionFile(run, 1, sampleBatch(1));
    const queue = await startIdle(p.presenter);
    return { p, queue, ...firstShown(p.shown) };
  }

  test('presents batches of a run one at a time, in ascending order', async () => {
    const p = recordingPresenter();
    await writeQuestionFile(run, 2, sampleBatch(2));
    await writeQuestionFile(run, 1, sampleBatch(1));
    const queue = await startIdle(p.presenter);
    assert.deepEqual(
      p.shown.map((s) => [s.seq, s.status]),
      [[1, 'open']],
    );
    const { key, revision } = firstShown(p.shown);
    const outcome = await queue.actions.submit(key, {
      revision,
      by: 'U1',
      unsaved: new Map(
        Object.entries({ format: 'CSV', targets: ['android', 'web'], notes: 'none', go: true }),
      ),
    });
    assert.equal(outcome.kind, 'answered');
    await queue.idle();
    assert.deepEqual(
      p.shown.map((s) => [s.seq, s.status]),
      [
        [1, 'open'],
        [1, 'answered'],
        [2, 'open'],
      ],
    );
    const written = JSON.parse(await readFile(path.join(run, 'qa', 'q-answers-001.json'), 'utf8'));
    assert.deepEqual(
      written.answers.map((a: { answer: unknown }) => a.answer),
      ['CSV', ['web', 'android'], 'none', true],
    );
    await queue.close();
  });

  test('a gap in the sequence is shown with a note, not waited on forever', async () => {
    const p = recordingPresenter();
    await writeFile(path.join(run, 'qa', 'q-answers-001.json'), '{}');
    await writeQuestionFile(run, 1, sampleBatch(1));
    await writeQuestionFile(run, 3, sampleBatch(3));
    const queue = await startIdle(p.presenter);
    assert.equal(p.shown.length, 1);
    assert.equal(p.shown[0]?.seq, 3);
    assert.equal(
      store.get(p.shown[0]?.key as string)?.note,
      'Batch 2 has no question or answer file; batch 3 is shown next in order.',
    );
    await queue.close();
  });

  test('an answer file from another provider closes the batch and brings the next', async () => {
    const p = recordingPresenter();
    await writeQuestionFile(run, 1, sampleBatch(1));
    await writeQuestionFile(run, 2, sampleBatch(2));
    const queue = await startIdle(p.presenter);
    await writeFile(path.join(run, 'qa', 'q-answers-001.json'), '{"seq":1}');
    queue.notify({ type: 'qa-file', runDir: run, name: 'q-answers-001.json' });
    await queue.idle();
    // batch 1 closes before batch 2 opens (an answer file that does not parse is shown again,
    // later, once the relay gives up reading it whole)
    const steps = p.shown.map((s) => `${s.seq} ${s.status}`);
    assert.deepEqual([...new Set(steps)], ['1 open', '1 answered-elsewhere', '2 open']);
    await queue.close();
  });

  test('a rewritten question file is shown again with drafts cleared; a deleted one is withdrawn', async () => {
    const p = recordingPresenter();
    await writeQuestionFile(run, 1, sampleBatch(1));
    const queue = await startIdle(p.presenter);
    const key = p.shown[0]?.key as string;
    const first = store.get(key) as BatchRecord;
    await queue.actions.saveDraft(key, {
      revision: first.fingerprint.slice(0, 8),
      questionId: 'format',
      answer: 'JSON',
    });
    assert.deepEqual({ ...store.get(key)?.drafts }, { format: 'JSON' });

    await writeQuestionFile(run, 1, sampleBatch(1, { note: 'second version' }));
    touch(queue);
    await queue.idle();
    const second = store.get(key) as BatchRecord;
    assert.notEqual(second.fingerprint, first.fingerprint);
    assert.deepEqual({ ...second.drafts }, {});
    assert.equal(second.status, 'open');
    assert.equal(second.presentation?.ts, first.presentation?.ts, 'same message, updated');

    const stale = await queue.actions.submit(key, {
      revision: first.fingerprint.slice(0, 8),
      by: 'U1',
      unsaved: new Map(Object.entries({ format: 'JSON', targets: ['web'], notes: '', go: false })),
    });
    assert.equal(stale.kind, 'out-of-date');

    await unlink(path.join(run, 'qa', 'q-out-001.json'));
    touch(queue);
    await queue.idle();
    assert.equal(store.get(key)?.status, 'withdrawn');
    assert.equal(p.shown.at(-1)?.status, 'withdrawn');
    await queue.close();
  });

  test('removing the run folder closes its open batch', async () => {
    const p = recordingPresenter();
    await writeQuestionFile(run, 1, sampleBatch(1));
    const queue = await startIdle(p.presenter);
    await rm(run, { recursive: true });
    queue.notify({ type: 'run-gone', runDir: run });
    await queue.idle();
    assert.equal(p.shown.at(-1)?.status, 'run-removed');
    await queue.close();
  });

  test('a malformed file is reported once it stops changing, and reopens when fixed', async () => {
    const p = recordingPresenter();
    const { queue } = await startTwoRuns(
      p.presenter,
      { settleMs: 100 },
      '{"seq": 1, "questions": [',
    );
    await waitFor(() => p.shown.find((s) => s.status === 'malformed'), 'malformed report');
    const bad = p.shown.find((s) => s.status === 'malformed');
    assert.match(String(bad?.ctx.error?.problems[0]?.message), /JSON/);
    assert.ok(
      p.shown.find((s) => s.key !== bad?.key && s.status === 'open'),
      'other run unaffected',
    );

    await writeQuestionFile(run, 1, sampleBatch(1));
    touch(queue);
    await waitFor(() => p.last(1) && store.get(bad?.key as string)?.status === 'open', 'reopened');
    await queue.close();
  });

  test('a FIFO in place of a question file is reported, never read (it would block a thread)', async () => {
    const p = recordingPresenter();
    execFileSync('mkfifo', [path.join(run, 'qa', 'q-out-001.json')]);
    const queue = start(p.presenter, { settleMs: 0 });
    touch(queue);
    queue.start();
    await waitFor(() => p.shown.find((s) => s.status === 'malformed'), 'malformed report');
    const shown = p.shown.find((s) => s.status === 'malformed');
    assert.match(
      String(shown?.ctx.error?.problems[0]?.message),
      /will not read it: not a regular file/,
    );
    await queue.close();
  });

  test('a half-written file is not reported as malformed when it completes in time', async () => {
    const p = recordingPresenter();
    const file = path.join(run, 'qa', 'q-out-001.json');
    const text = JSON.stringify(sampleBatch(1));
    await writeFile(file, text.slice(0, 20));
    const queue = await startIdle(p.presenter, { settleMs: 5000 });
    assert.equal(p.shown.length, 0, 'nothing shown while the file is incomplete');
    await writeFile(file, text);
    touch(queue);
    await queue.idle();
    assert.deepEqual(
      p.shown.map((s) => s.status),
      ['open'],
    );
    await queue.close();
  });

  test('submit with an answer missing writes nothing and names the question', async () => {
    const { queue, key, revision } = await showFirstBatch();
    const outcome = await queue.actions.submit(key, {
      revision,
      by: 'U1',
      unsaved: new Map(Object.entries({ format: 'JSON' })),
    });
    assert.equal(outcome.kind, 'incomplete');
    assert.deepEqual(outcome.kind === 'incomplete' && outcome.missing, ['targets', 'notes', 'go']);
    assert.deepEqual(await readdir(path.join(run, 'qa')), ['q-out-001.json']);
    await queue.close();
  });

  test("the drafts are the truth: a screen's choices only fill questions without a draft", async () => {
    const { queue, key, revision } = await showFirstBatch();
    await queue.actions.saveDraft(key, { revision, questionId: 'format', answer: 'CSV' });
    await queue.actions.saveDraft(key, { revision, questionId: 'go', answer: false });
    const outcome = await queue.actions.submit(key, {
      revision,
      by: 'U1',
      // a screen that still shows someone's earlier picks
      unsaved: new Map<string, Answer>([
        ['format', 'JSON'],
        ['targets', ['web']],
        ['notes', 'from the screen'],
      ]),
      tapped: { questionId: 'go', answer: true },
    });
    assert.equal(outcome.kind, 'answered');
    const written = JSON.parse(await readFile(path.join(run, 'qa', 'q-answers-001.json'), 'utf8'));
    assert.deepEqual(
      written.answers.map((a: { answer: unknown }) => a.answer),
      ['CSV', ['web'], 'from the screen', true],
    );
    await queue.close();
  });

  test('a revision must match exactly: a prefix of it is refused', async () => {
    const { queue, key, revision } = await showFirstBatch();
    for (const forged of ['', revision.slice(0, 1), revision.slice(0, 7), `${revision}0`]) {
      const outcome = await queue.actions.saveDraft(key, {
        revision: forged,
        questionId: 'format',
        answer: 'CSV',
      });
      assert.deepEqual(outcome, { kind: 'out-of-date' }, JSON.stringify(forged));
    }
    assert.deepEqual({ ...store.get(key)?.drafts }, {});
    await queue.close();
  });

  test('losing the race to another provider: their file stays, the batch is answered elsewhere', async () => {
    const { queue, key, revision } = await showFirstBatch();
    await writeFile(path.join(run, 'qa', 'q-answers-001.json'), '{"theirs":true}');
    const outcome = await queue.actions.submit(key, {
      revision,
      by: 'U1',
      unsaved: new Map(Object.entries({ format: 'JSON', targets: ['web'], notes: 'x', go: true })),
    });
    assert.equal(outcome.kind, 'answered-elsewhere');
    assert.equal(
      await readFile(path.join(run, 'qa', 'q-answers-001.json'), 'utf8'),
      '{"theirs":true}',
    );
    await queue.close();
  });

  test('a presenter failure is retried without holding up other runs', async () => {
    const p = recordingPresenter();
    p.failNext(1);
    const { queue } = await startTwoRuns(p.presenter);
    await waitFor(() => p.shown.length === 2, 'both runs shown after a retry');
    assert.equal(p.posts(), 2);
    await queue.close();
  });

  test('at a start with many runs, a hint about a run listed ahead of its sync is not lost', async () => {
    // a restart finds many runs, their batches answered; their folders are listed ahead of
    // their syncs, and a run changed after its listing must be listed again, not passed over
    const runs = Array.from({ length: 20 }, (_, i) => path.join(root, 'runs', `done-${i}`));
    for (const done of runs) {
      await writeQuestionFile(done, 1, sampleBatch(1));
      await writeFile(path.join(done, 'qa', 'q-answers-001.json'), '{}');
    }
    await writeQuestionFile(run, 1, sampleBatch(1));
    const listed: string[] = [];
    let letPost: () => void = () => {};
    const posting = new Promise<void>((resolve) => {
      letPost = resolve;
    });
    const p = recordingPresenter();
    const queue = createBatchQueue({
      store,
      presenter: {
        ...p.presenter,
        sync: async (record, ctx, progress) => {
          await posting;
          return p.presenter.sync(record, ctx, progress);
        },
      },
      log,
      roots: [path.join(root, 'runs')],
      settleMs: 50,
      concurrency: 1,
      listQa: async (qaDir) => {
        const names = await readdir(qaDir);
        listed.push(path.dirname(qaDir));
        return names;
      },
    });
    touch(queue); // run-a's sync goes first, and waits on its post
    for (const done of runs) touch(queue, done);
    queue.start();
    const changed = runs.at(-1) as string;
    await waitFor(() => listed.includes(changed), 'the last run listed ahead');
    await writeQuestionFile(changed, 2, sampleBatch(2));
    queue.notify({ type: 'qa-file', runDir: changed, name: 'q-out-002.json' });
    letPost();
    await queue.idle();
    assert.deepEqual(
      p.shown.map((s) => [path.basename(store.get(s.key)?.runDir ?? ''), s.seq]),
      [
        ['run-a', 1],
        ['done-19', 2],
      ],
    );
    assert.equal(listed.filter((r) => r === changed).length, 2, 'listed again after the hint');
    assert.equal(listed.length, runs.length + 2, 'every other run listed once');
    await queue.close();
  });

  test('a batch Slack refuses for good is marked, told once, and not retried until it changes; other runs carry on', async () => {
    const p = recordingPresenter();
    p.refuse(1);
    const lines: { msg: string; retryInMs?: number }[] = [];
    const logged = pino(
      { level: 'debug' },
      { write: (line: string) => lines.push(JSON.parse(line)) },
    );
    const { queue, other } = await startTwoRuns(p.presenter, { log: logged });
    await queue.idle();
    await waitFor(() => p.told.length === 2, 'both refusals told');
    const records = store.all().sort((a, b) => a.runDir.localeCompare(b.runDir));
    assert.deepEqual(
      records.map((r) => [r.runDir, r.undeliverable?.code, r.undeliverable?.told]),
      [
        [run, 'msg_blocks_too_long', true],
        [other, 'msg_blocks_too_long', true],
      ],
    );
    // the two runs are synced side by side: either may be told first
    assert.deepEqual(p.told.map((t) => t.questionFile).sort(), [
      path.join(run, 'qa', 'q-out-001.json'),
      path.join(other, 'qa', 'q-out-001.json'),
    ]);

    // hints about the run do not retry it while nothing changed (no retry loop): the hints'
    // syncs are over once the queue is idle, and a retry on a timer would have been logged
    // with its delay when it was set; the only one set is the long wait of a refusal
    const before = p.attempts();
    for (let i = 0; i < 5; i += 1) touch(queue);
    await queue.idle();
    assert.equal(p.attempts(), before);
    const retries = lines.filter((line) => line.retryInMs !== undefined);
    assert.deepEqual(
      retries.map((line) => [line.msg, line.retryInMs]),
      retries.map((line) => [line.msg, 60 * 60_000]),
    );
    assert.ok(retries.length > 0, 'the refusal said when it is tried again');

    // the agent rewrites the file: it is tried again, and shown once Slack takes it
    p.accept(1);
    await writeQuestionFile(run, 1, sampleBatch(1, { note: 'shorter now' }));
    touch(queue);
    await waitFor(() => p.last(1)?.status === 'open', 'the rewritten batch shown');
    await queue.idle();
    const shown = store.all().find((r) => r.runDir === run);
    assert.equal(shown?.undeliverable, undefined, 'cleared once shown');
    assert.equal(p.told.length, 2, 'nobody was told again');
    await queue.close();
  });

  test('a refused batch is tried again after the long wait, and told only once', async () => {
    const p = recordingPresenter();
    await writeQuestionFile(run, 1, sampleBatch(1));
    p.refuse(1);
    const queue = start(p.presenter, { refusedRetryMs: 150 });
    touch(queue);
    queue.start();
    await waitFor(() => p.told.length === 1, 'refusal told');
    const first = p.attempts();
    await waitFor(() => p.attempts() > first, 'tried again after the wait');
    p.accept(1);
    await waitFor(() => p.shown.length === 1, 'shown at last');
    assert.equal(p.told.length, 1);
    await queue.close();
  });

  test('a restart tries a batch Slack refused for good again, and nobody is told twice', async () => {
    const p = recordingPresenter();
    await writeQuestionFile(run, 1, sampleBatch(1));
    p.refuse(1);
    let queue = start(p.presenter);
    touch(queue);
    queue.start();
    await waitFor(() => store.all()[0]?.undeliverable?.told, 'the refusal told and stored');
    await queue.idle();
    assert.equal(p.told.length, 1);

    const restart = async () => {
      await queue.close();
      await store.close();
      store = await openFileStateStore(path.join(root, 'state'), { log });
      queue = start(p.presenter);
      queue.start(); // no hint: the store knows the run
    };

    // Slack still refuses it: tried again at start, but the stored refusal says people know
    let tries = p.attempts();
    await restart();
    await waitFor(() => p.attempts() > tries, 'tried again after the restart');
    await queue.idle();
    await waitFor(() => store.all()[0]?.undeliverable?.told, 'still marked as told');
    assert.equal(p.told.length, 1, 'nobody was told again');

    // Slack takes it at the next start: shown once, and the mark cleared
    p.accept(1);
    tries = p.attempts();
    await restart();
    await waitFor(() => p.shown.length === 1, 'shown after the second restart');
    await queue.idle();
    assert.equal(store.all()[0]?.undeliverable, undefined, 'cleared once shown');
    assert.equal(p.told.length, 1);
    assert.equal(p.attempts(), tries + 1, 'one attempt was enough');
    await queue.close();
  });

  test('after a restart nothing is shown twice and drafts are kept', async () => {
    const p = recordingPresenter();
    await writeQuestionFile(run, 1, sampleBatch(1));
    let queue = start(p.presenter);
    touch(queue);
    queue.start();
    await queue.idle();
    const { key, revision } = firstShown(p.shown);
    await queue.actions.saveDraft(key, { revision, questionId: 'go', answer: false });
    await queue.close();
    await store.close();

    store = await openFileStateStore(path.join(root, 'state'), { log });
    const again = recordingPresenter();
    queue = start(again.presenter);
    touch(queue);
    queue.start();
    await queue.idle();
    assert.equal(again.shown.length, 0, 'already shown, not shown again');
    assert.deepEqual({ ...store.get(key)?.drafts }, { go: false });
    await queue.close();
  });

  test('a crash between "submitting" and publishing is finished on the next start', async () => {
    await writeQuestionFile(run, 1, sampleBatch(1));
    const p = recordingPresenter();
    let queue = start(p.presenter);
    touch(queue);
    queue.start();
    await queue.idle();
    await queue.close();
    const key = p.shown[0]?.key as string;
    const record = store.get(key) as BatchRecord;
    // What the store holds if the process died right after recording the submission.
    await store.put({
      ...record,
      status: 'submitting',
      answeredBy: 'U9',
      drafts: { format: 'CSV', targets: ['ios'], notes: 'n', go: true },
    });
    await store.close();

    store = await openFileStateStore(path.join(root, 'state'), { log });
    queue = start(p.presenter);
    queue.start();
    await queue.idle();
    assert.equal(store.get(key)?.status, 'answered');
    const written = JSON.parse(await readFile(path.join(run, 'qa', 'q-answers-001.json'), 'utf8'));
    assert.equal(written.answers[0].answer, 'CSV');
    await queue.close();
  });
});
