import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAuditNames } from '../../src/audit/audit-names.js';

describe("the audit log's display names", () => {
  test('looked up once and kept for an hour; asked again after', async () => {
    let clock = 0;
    const asked: string[] = [];
    const names = createAuditNames({
      lookup: async (id) => {
        asked.push(id);
        return `name of ${id} #${asked.length}`;
      },
      now: () => clock,
    });
    assert.equal(await names.of('U1'), 'name of U1 #1');
    assert.equal(await names.of('U1'), 'name of U1 #1');
    assert.deepEqual(asked, ['U1']);
    clock += 3_600_001;
    assert.equal(await names.of('U1'), 'name of U1 #2', 'renamed people are seen');
  });

  test('decisions made at once by one person share one lookup', async () => {
    const asked: string[] = [];
    const names = createAuditNames({
      lookup: async (id) => {
        asked.push(id);
        await new Promise((resolve) => setTimeout(resolve, 10));
        return 'alice';
      },
    });
    const all = await Promise.all(Array.from({ length: 30 }, () => names.of('U1')));
    assert.deepEqual(new Set(all), new Set(['alice']));
    assert.deepEqual(asked, ['U1']);
  });

  test('a lookup that fails or is slow gives no name, in time, and is tried again', async () => {
    let calls = 0;
    const failing = createAuditNames({
      lookup: async () => {
        calls += 1;
        throw new Error('user_not_found');
      },
    });
    assert.equal(await failing.of('U2'), undefined);
    assert.equal(await failing.of('U2'), undefined);
    assert.equal(calls, 2);
    const slow = createAuditNames({
      lookup: () => new Promise((resolve) => setTimeout(() => resolve('late'), 2000).unref()),
      waitMs: 30,
    });
    const started = Date.now();
    assert.equal(await slow.of('U3'), undefined);
    assert.ok(Date.now() - started < 1500, 'not waited for');
  });
});
