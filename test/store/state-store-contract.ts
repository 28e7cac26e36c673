import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BatchRecord } from '../../src/core/batch/batch-record.js';
import { valueFor, withIdValue } from '../../src/core/protocol/questions/id-record.js';
import type { Answer } from '../../src/core/protocol/questions/question.js';
import type { StateStore } from '../../src/store/state-store.js';
import { makeRecord } from '../support/make-record.js';
import { waitFor } from '../support/wait.js';

/**
 * One way of keeping batch records, as the contract suite drives it. Each `open` is a relay
 * starting on the same shared state; a store is closed by the suite.
 */
export interface StoreHarness {
  /** A relay's store on the state (after earlier stores were closed: a restart). */
  open(): Promise<StateStore>;
  /**
   * A second relay's store on the same state at the same time, where the implementation allows
   * one (the file store locks its folder: there, concurrency is within one store).
   */
  openPeer?: () => Promise<StateStore>;
  /** What `record`, put by a store from `open`, reads back as (a store may stamp its node). */
  stored(record: BatchRecord): BatchRecord;
  /** Removes everything the harness made. */
  dispose(): Promise<void>;
}

/**
 * The behaviour every `StateStore` has. `makeHarness` is called once per test, so each test
 * starts on empty state; `options` goes to each test (e.g. to say why a suite is not run).
 */
export function stateStoreContract(
  name: string,
  makeHarness: () => Promise<StoreHarness>,
  options: { skip?: string | false; timeout?: number } = {},
): void {
  const testOptions = { timeout: 120_000, ...options };
  describe(`${name}: the StateStore contract`, () => {
    let harness: StoreHarness;
    const open: StateStore[] = [];
    const opened = async (store: Promise<StateStore>) => {
      const s = await store;
      open.push(s);
      return s;
    };
    /** A store opened for the test, holding `records` once all their puts (made at once) are done. */
    const holding = async (...records: BatchRecord[]) => {
      const store = await opened(harness.open());
      await Promise.all(records.map((r) => store.put(r)));
      return store;
    };
    const closeAll = async () => {
      await Promise.all(open.splice(0).map((s) => s.close()));
    };
    const contractTest = (title: string, body: () => Promise<void>) =>
      it(title, testOptions, async () => {
        harness = await makeHarness();
        try {
          await body();
        } finally {
          await closeAll();
          await harness.dispose();
        }
      });
    contractTest('put, get, forRun and all give back what was put', async () => {
      const store = await opened(harness.open());
      const a2 = makeRecord('/runs/a', 2, { drafts: { format: 'JSON' } });
      const a1 = makeRecord('/runs/a', 1, {
        status: 'answered',
        drafts: { tags: ['x', 'y'], ok: true },
        presentation: { channel: 'C1', ts: '1700000000.000100', blocks: [{ n: 1 }] },
        answeredBy: 'U42',
        answeredAt: '2025-01-02T00:00:00.000Z',
        handoffs: [{ from: 'U1', to: 'U2', at: '2025-01-02T00:00:00.000Z', note: 'yours' }],
      });
      const b1 = makeRecord('/runs/b with space/é', 1, { status: 'malformed' });
      await Promise.all([store.put(a2), store.put(a1), store.put(b1)]);
      assert.deepEqual(store.get(a1.key), harness.stored(a1));
      assert.deepEqual(store.forRun('/runs/a'), [harness.stored(a1), harness.stored(a2)]);
      assert.deepEqual(store.forRun('/runs/nowhere'), []);
      assert.deepEqual(
        sortByKey(store.all()),
        sortByKey([a1, a2, b1].map((r) => harness.stored(r))),
      );
      assert.equal(store.get('no-such-key'), undefined);

      const changed = makeRecord('/runs/a', 2, { status: 'submitting', problem: 'EACCES' });
      await store.put(changed);
      assert.deepEqual(store.get(a2.key), harness.stored(changed));
      assert.equal(store.forRun('/runs/a').length, 2);
    });

    contractTest('a stored record is a copy: changing the object put changes nothing', async () => {
      const store = await opened(harness.open());
      const record = makeRecord('/runs/a', 1, { drafts: { q: 'kept' } });
      await store.put(record);
      record.drafts.q = 'changed afterwards';
      record.status = 'withdrawn';
      assert.equal(store.get(record.key)?.drafts.q, 'kept');
      assert.equal(store.get(record.key)?.status, 'open');
    });

    contractTest('a record that is not valid is refused by its own put', async () => {
      const store = await opened(harness.open());
      const bad = { ...makeRecord('/runs/a', 1), seq: -1 };
      await assert.rejects(store.put(bad), /not a valid batch record/);
      assert.equal(store.get(bad.key), undefined);
    });

    contractTest('forget drops every record of one run and nothing else', async () => {
      const a1 = makeRecord('/runs/a', 1);
      const a2 = makeRecord('/runs/a', 2);
      const b1 = makeRecord('/runs/b', 1);
      const store = await holding(a1, a2, b1);
      await store.forget('/runs/a');
      assert.deepEqual(store.forRun('/runs/a'), []);
      assert.equal(store.get(a1.key), undefined);
      assert.deepEqual(store.all(), [harness.stored(b1)]);
      await store.forget('/runs/never-seen');
      const again = makeRecord('/runs/a', 1, { fingerprint: 'new' });
      await store.put(again);
      assert.deepEqual(store.forRun('/runs/a'), [harness.stored(again)]);
    });

    contractTest('update applies the change to the freshest record and stores it', async () => {
      const store = await opened(harness.open());
      const record = makeRecord('/runs/a', 1);
      await store.put(record);
      const updated = await store.update(record.key, (current) => ({
        ...current,
        drafts: withIdValue<Answer>(current.drafts, 'format', 'CSV'),
        claimedBy: 'U7',
      }));
      const expected = harness.stored(
        makeRecord('/runs/a', 1, { drafts: { format: 'CSV' }, claimedBy: 'U7' }),
      );
      assert.deepEqual(updated, expected);
      assert.deepEqual(store.get(record.key), expected);
    });

    contractTest('update: undefined from the change leaves the record as it is', async () => {
      const store = await opened(harness.open());
      const record = makeRecord('/runs/a', 1, { drafts: { q: 'a' } });
      await store.put(record);
      let seen: BatchRecord | undefined;
      const result = await store.update(record.key, (current) => {
        seen = current;
        return undefined;
      });
      assert.deepEqual(seen, harness.stored(record));
      assert.deepEqual(result, harness.stored(record));
      assert.deepEqual(store.get(record.key), harness.stored(record));
    });

    contractTest(
      'update of a key no record has resolves to undefined without a change',
      async () => {
        const store = await opened(harness.open());
        let called = false;
        const result = await store.update('nobody.1', (current) => {
          called = true;
          return current;
        });
        assert.equal(result, undefined);
        assert.equal(called, false);
        assert.deepEqual(store.all(), []);
      },
    );

    contractTest('update: a change that throws, or moves the batch, changes nothing', async () => {
      const store = await opened(harness.open());
      const record = makeRecord('/runs/a', 1);
      await store.put(record);
      await assert.rejects(
        store.update(record.key, () => {
          throw new Error('the change failed');
        }),
        /the change failed/,
      );
      await assert.rejects(
        store.update(record.key, (current) => ({ ...current, seq: 2 })),
        /may not change its seq/,
      );
      await assert.rejects(
        store.update(record.key, (current) => ({ ...current, runDir: '/runs/elsewhere' })),
        /may not change its runDir/,
      );
      await assert.rejects(
        store.update(record.key, (current) => ({ ...current, status: 'no-such' as 'open' })),
        /not a valid batch record/,
      );
      assert.deepEqual(store.get(record.key), harness.stored(record));
    });

    contractTest('concurrent updates of one batch from two relays lose nothing', async () => {
      const first = await opened(harness.open());
      const second = harness.openPeer ? await opened(harness.openPeer()) : first;
      const record = makeRecord('/runs/a', 1, { reminders: 0 });
      await first.put(record);
      await waitFor(() => second.get(record.key), 'the second relay sees the record');
      const each = 40;
      const bump = (store: StateStore, who: string, i: number) =>
        store.update(record.key, (current) => ({
          ...current,
          reminders: (current.reminders ?? 0) + 1,
          drafts: withIdValue<Answer>(current.drafts, `${who}-${i}`, `${who} answer ${i}`),
        }));
      await Promise.all(
        Array.from({ length: each }, (_, i) => [
          bump(first, 'one', i),
          bump(second, 'two', i),
        ]).flat(),
      );
      for (const store of [first, second]) {
        const final = await waitFor(
          () => (store.get(record.key)?.reminders === 2 * each ? store.get(record.key) : undefined),
          `every update seen by ${store === first ? 'the first' : 'the second'} relay`,
        );
        assert.equal(Object.keys(final.drafts).length, 2 * each);
        assert.equal(final.drafts['two-7'], 'two answer 7');
      }
    });

    contractTest('a second relay sees what the first one writes and forgets', async () => {
      const first = await opened(harness.open());
      const second = harness.openPeer ? await opened(harness.openPeer()) : first;
      const record = makeRecord('/runs/a', 1);
      await first.put(record);
      await waitFor(() => second.get(record.key), 'the put seen by the second relay');
      await second.update(record.key, (current) => ({ ...current, assignee: 'U9' }));
      await waitFor(() => first.get(record.key)?.assignee === 'U9', 'the update seen back');
      await first.forget('/runs/a');
      await waitFor(() => second.get(record.key) === undefined, 'the forget seen');
    });

    contractTest("watchers hear of other relays' changes, never of their own store's", async () => {
      const first = await opened(harness.open());
      const heard: string[] = [];
      first.watch((record) => heard.push(`${record.key} ${record.assignee ?? '-'}`));
      const record = makeRecord('/runs/a', 1);
      await first.put(record);
      await first.update(record.key, (current) => ({ ...current, assignee: 'U1' }));
      if (!harness.openPeer) {
        assert.deepEqual(heard, [], 'a store only this relay writes tells nobody');
        return;
      }
      const second = await opened(harness.openPeer());
      await waitFor(() => second.get(record.key), 'the record seen by the second relay');
      await second.update(record.key, (current) => ({ ...current, assignee: 'U2' }));
      await waitFor(() => heard.includes(`${record.key} U2`), "the other relay's change heard");
      assert.ok(!heard.includes(`${record.key} U1`), 'its own writes are not told back');
    });

    contractTest(
      'question ids such as __proto__ are kept as data, in null-prototype records',
      async () => {
        const store = await opened(harness.open());
        const record = makeRecord('/runs/a', 1, {
          drafts: JSON.parse('{"__proto__": "proto answer", "constructor": ["a", "b"]}'),
          followUps: JSON.parse('{"__proto__": "typed text"}'),
        });
        await store.put(record);
        await store.update(record.key, (current) => ({
          ...current,
          drafts: withIdValue<Answer>(current.drafts, 'toString', true),
        }));
        await store.close();
        open.splice(open.indexOf(store), 1);
        const reopened = await opened(harness.open());
        const back = reopened.get(record.key);
        assert.ok(back);
        assert.equal(Object.getPrototypeOf(back.drafts), null);
        assert.equal(valueFor(back.drafts, '__proto__'), 'proto answer');
        assert.deepEqual(valueFor(back.drafts, 'constructor'), ['a', 'b']);
        assert.equal(valueFor(back.drafts, 'toString'), true);
        assert.equal(valueFor(back.drafts, 'hasOwnProperty'), undefined);
        assert.ok(back.followUps);
        assert.equal(Object.getPrototypeOf(back.followUps), null);
        assert.equal(valueFor(back.followUps, '__proto__'), 'typed text');
      },
    );

    contractTest('a restart keeps records, updates, forgets and notices', async () => {
      const a1 = makeRecord('/runs/a', 1);
      const a2 = makeRecord('/runs/a', 2);
      const gone = makeRecord('/runs/gone', 1);
      const store = await holding(a1, a2, gone);
      await store.update(a2.key, (current) => ({ ...current, status: 'answered' }));
      await store.forget('/runs/gone');
      await store.notices.add('look-alike', '/runs/a/qa/q-out-1.json');
      await store.notices.add('unreadable', '/runs/locked/qa');
      await store.notices.add('unreadable', '/runs/fixed/qa');
      await store.notices.remove('unreadable', (path) => path.startsWith('/runs/fixed'));
      assert.equal(store.notices.has('unreadable', '/runs/fixed/qa'), false);
      await store.close();
      open.splice(open.indexOf(store), 1);

      const reopened = await opened(harness.open());
      assert.deepEqual(reopened.forRun('/runs/a'), [
        harness.stored(a1),
        harness.stored({ ...a2, status: 'answered' }),
      ]);
      assert.equal(reopened.get(gone.key), undefined);
      assert.deepEqual(reopened.forRun('/runs/gone'), []);
      assert.equal(reopened.notices.has('look-alike', '/runs/a/qa/q-out-1.json'), true);
      assert.deepEqual(reopened.notices.paths('unreadable'), ['/runs/locked/qa']);
      assert.equal(reopened.notices.has('unreadable', '/runs/fixed/qa'), false);
    });

    contractTest('a closed store refuses writes instead of losing them', async () => {
      const store = await opened(harness.open());
      await store.close();
      open.splice(open.indexOf(store), 1);
      await assert.rejects(store.put(makeRecord('/runs/a', 1)), /closed/);
    });
  });
}

function sortByKey(records: BatchRecord[]): BatchRecord[] {
  return [...records].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
