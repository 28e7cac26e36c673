import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { batchKey } from '../../src/core/batch/batch-key.js';
import type { BatchRecord } from '../../src/core/batch/batch-record.js';
import { idRecord } from '../../src/core/protocol/questions/id-record.js';
import { batchEventOf, observeBatches } from '../../src/ops/observe-batches.js';
import { createRelayMetrics } from '../../src/ops/relay-metrics.js';
import { openFileStateStore } from '../../src/store/file-state-store.js';
import { captureLog } from '../support/log-capture.js';
import { makeTempDir } from '../support/temp-dir.js';

const NOTICED = '2030-01-01T10:00:00.000Z';
const at = (iso: string) => Date.parse(iso);

/** An open batch of run /runs/a noticed at NOTICED, with `changes`. */
function record(changes: Partial<BatchRecord> = {}): BatchRecord {
  return {
    key: batchKey('/runs/a', 1),
    runDir: '/runs/a',
    seq: 1,
    fingerprint: 'fp',
    status: 'open',
    drafts: idRecord(),
    createdAt: NOTICED,
    updatedAt: NOTICED,
    ...changes,
  };
}

const posted = (ts = '1700000000.000100') => ({ channel: 'C0RELAY01', ts, replies: [] });

describe('batchEventOf', () => {
  test('posted: the first version with a message, timed from the question file noticed', () => {
    const event = batchEventOf(
      record(),
      record({ presentation: posted() }),
      at('2030-01-01T10:00:01.500Z'),
    );
    assert.equal(event?.kind, 'posted');
    assert.equal(event?.kind === 'posted' && event.latencyMs, 1500);
  });

  test('not posted: a message posted again, a layout change before any message, a malformed file', () => {
    const later = at('2030-01-01T10:05:00.000Z');
    const shown = record({ presentation: posted() });
    assert.equal(batchEventOf(shown, record({ presentation: posted('2.0') }), later), undefined);
    assert.equal(
      batchEventOf(record(), record({ presentation: { ...posted(), ts: '', split: 1 } }), later),
      undefined,
    );
    assert.equal(
      batchEventOf(
        record({ status: 'malformed' }),
        record({ status: 'malformed', presentation: posted() }),
        later,
      ),
      undefined,
    );
  });

  test('answered: timed from the Submit click, with how long the agent waited', () => {
    const clicked = record({
      status: 'submitting',
      answeredBy: 'U0ALICE01',
      answeredAt: '2030-01-01T10:30:00.000Z',
      presentation: posted(),
    });
    const event = batchEventOf(
      clicked,
      { ...clicked, status: 'answered' },
      at('2030-01-01T10:30:00.040Z'),
    );
    assert.deepEqual(event && { ...event, record: undefined }, {
      kind: 'answered',
      record: undefined,
      latencyMs: 40,
      waitedMs: 30 * 60_000 + 40,
    });
    assert.equal(
      batchEventOf({ ...clicked, status: 'answered' }, { ...clicked, status: 'answered' }, 0),
      undefined,
      'a later save of an answered batch is no new answer',
    );
  });

  test('answered elsewhere, once', () => {
    const open = record({ presentation: posted() });
    const elsewhere = { ...open, status: 'answered-elsewhere' as const };
    assert.equal(batchEventOf(open, elsewhere, 0)?.kind, 'answered-elsewhere');
    assert.equal(batchEventOf(elsewhere, elsewhere, 0), undefined);
  });
});

describe('observeBatches', () => {
  test('counts and logs what the queue stores, through a real store', async () => {
    const { dir, cleanup } = await makeTempDir('o7-observe-');
    const { log, records: lines } = captureLog('info');
    const registry = new Registry();
    const metrics = createRelayMetrics(
      registry,
      { openBatches: () => 0, watchedRuns: () => 0, slackConnected: () => true },
      { processMetrics: false },
    );
    let clock = at('2030-01-01T10:00:02.000Z');
    const inner = await openFileStateStore(dir, { log: pino({ level: 'silent' }) });
    const store = observeBatches(inner, { metrics, log, now: () => clock });
    try {
      await store.put(record());
      await store.put(record({ presentation: posted() }));
      await store.put(record({ presentation: posted(), drafts: idRecord([['go', true]]) }));
      clock = at('2030-01-01T10:01:00.000Z');
      const clicked = record({
        presentation: posted(),
        status: 'submitting',
        answeredBy: 'U0ALICE01',
        answeredAt: '2030-01-01T10:00:59.750Z',
      });
      await store.put(clicked);
      await store.put({ ...clicked, status: 'answered' });
      assert.equal(store.get(clicked.key)?.status, 'answered', 'the store got every record');

      const value = async (name: string) =>
        (await registry.getSingleMetric(name)?.get())?.values[0]?.value;
      assert.equal(await value('o7_relay_batches_posted_total'), 1);
      assert.equal(await value('o7_relay_batches_answered_total'), 1);
      assert.equal(await value('o7_relay_batches_answered_elsewhere_total'), 0);
      const text = await registry.metrics();
      assert.match(text, /^o7_relay_post_latency_seconds_sum 2$/m);
      assert.match(text, /^o7_relay_submit_latency_seconds_sum 0\.25$/m);
      assert.deepEqual(
        lines.map(({ msg, runDir, seq, by, latencyMs, waitedMs }) => ({
          msg,
          runDir,
          seq,
          by,
          latencyMs,
          waitedMs,
        })),
        [
          {
            msg: 'batch posted',
            runDir: '/runs/a',
            seq: 1,
            by: undefined,
            latencyMs: 2000,
            waitedMs: undefined,
          },
          {
            msg: 'batch answered',
            runDir: '/runs/a',
            seq: 1,
            by: 'U0ALICE01',
            latencyMs: 250,
            waitedMs: 60_000,
          },
        ],
      );
    } finally {
      await store.close();
      await cleanup();
    }
  });
});
