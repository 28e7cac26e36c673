import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pino } from 'pino';
import type { Presenter } from '../../../src/queue/presenter.js';
import { withAppHomeRefresh } from '../../../src/slack/home/app-home-refresh.js';
import { makeRecord } from '../../support/make-record.js';

const log = pino({ level: 'silent' });
const ctx = { questionFile: '/r/qa/q-out-001.json' };
const save = async () => undefined;

describe('withAppHomeRefresh', () => {
  test('returns what the inner presenter returns, then asks for a Home refresh', async () => {
    const order: string[] = [];
    const inner: Presenter = {
      async sync() {
        order.push('inner');
        return { ts: '1.0' };
      },
      tellRefused: async () => false,
    };
    const presenter = withAppHomeRefresh(inner, { refreshSoon: () => order.push('home') }, log);
    assert.deepEqual(await presenter.sync(makeRecord('/r', 1), ctx, save), { ts: '1.0' });
    assert.deepEqual(order, ['inner', 'home']);
  });

  test('an inner failure still reaches the queue, and the Home is refreshed anyway', async () => {
    let refreshed = 0;
    const inner: Presenter = {
      async sync() {
        throw new Error('slack down');
      },
      tellRefused: async () => false,
    };
    const presenter = withAppHomeRefresh(inner, { refreshSoon: () => refreshed++ }, log);
    await assert.rejects(presenter.sync(makeRecord('/r', 1), ctx, save), /slack down/);
    assert.equal(refreshed, 1);
  });

  test('a failing Home refresh never fails the sync', async () => {
    const inner: Presenter = { sync: async () => ({ ok: 1 }), tellRefused: async () => false };
    const presenter = withAppHomeRefresh(
      inner,
      {
        refreshSoon() {
          throw new Error('boom');
        },
      },
      log,
    );
    assert.deepEqual(await presenter.sync(makeRecord('/r', 1), ctx, save), { ok: 1 });
  });
});
