import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pino } from 'pino';
import { ErrorCode, RelayError } from '../../../src/errors.js';
import { connectRedis } from '../../../src/redis/redis-connection.js';
import { redisKeys } from '../../../src/redis/redis-keys.js';
import {
  acceptOnce,
  SIGNING_WINDOW_MS,
  type SubmittedViews,
  submittedViewsInMemory,
  submittedViewsInRedis,
} from '../../../src/slack/access/submitted-views.js';
import { TRY_AGAIN_TEXT } from '../../../src/slack/access/try-again-middleware.js';
import { adminClient, redisForSuite } from '../../support/redis-for-suite.js';
import { needsRedis } from '../../support/redis-server.js';
import { freshNamespace } from '../../support/redis-store.js';

const log = pino({ level: 'silent' });
const form = { id: 'V0FORM001', hash: '1700000000.abcdef' };

describe('submittedViewsInMemory', () => {
  test('a submission is first once; another hash or form is another submission', async () => {
    const submitted = submittedViewsInMemory(() => 0);
    assert.equal(await submitted.first(form), true);
    assert.equal(await submitted.first(form), false);
    assert.equal(await submitted.first({ ...form, hash: '1700000001.fedcba' }), true);
    assert.equal(await submitted.first({ ...form, id: 'V0FORM002' }), true);
    assert.equal(await submitted.first({ id: 'V0FORM003', hash: undefined }), true);
    assert.equal(await submitted.first({ id: 'V0FORM003', hash: undefined }), false);
  });

  test("kept for Slack's signing window, then forgotten", async () => {
    let now = 1_000;
    const submitted = submittedViewsInMemory(() => now);
    assert.equal(await submitted.first(form), true);
    now += SIGNING_WINDOW_MS - 1;
    assert.equal(await submitted.first(form), false, 'still within the window');
    now += 1;
    assert.equal(await submitted.first(form), true, 'a request this old fails its signature check');
  });
});

describe('submittedViewsInRedis', () => {
  const redis = redisForSuite();

  test(
    'one key per submission (SET NX PX): a replay to another relay is caught too',
    needsRedis,
    async () => {
      const keys = redisKeys(freshNamespace());
      const relay = (node: string) =>
        connectRedis({ url: redis().url, log, clientName: `o7-test:${node}` });
      const a = await relay('a');
      const b = await relay('b');
      const admin = await adminClient(redis().url);
      try {
        const onA = submittedViewsInRedis(a, keys.submittedView);
        const onB = submittedViewsInRedis(b, keys.submittedView);
        assert.equal(await onA.first(form), true);
        assert.equal(await onB.first(form), false, 'the other relay sees it as done');
        assert.equal(await onA.first(form), false);
        const ttl = await admin.pTTL(keys.submittedView(`${form.id}:${form.hash}`));
        assert.ok(ttl > 0 && ttl <= SIGNING_WINDOW_MS, `expires with the window (PTTL ${ttl})`);
      } finally {
        await admin.close();
        await a.close();
        await b.close();
      }
    },
  );
});

describe('acceptOnce', () => {
  const run = async (submitted: SubmittedViews) => {
    const seen: string[] = [];
    const acted = await acceptOnce({
      submitted,
      submission: form,
      ack: async () => {
        seen.push('ack');
      },
      refuse: async (text) => {
        seen.push(`refuse: ${text}`);
      },
      log,
    });
    return { acted, seen };
  };

  test('the first time: acknowledged and acted on; a replay: acknowledged only', async () => {
    const submitted = submittedViewsInMemory();
    assert.deepEqual(await run(submitted), { acted: true, seen: ['ack'] });
    assert.deepEqual(await run(submitted), { acted: false, seen: ['ack'] });
  });

  test('shared mode unable to record it: the form stays open and asks to try again', async () => {
    const away: SubmittedViews = {
      first: () =>
        Promise.reject(new RelayError(ErrorCode.RedisUnavailable, 'recording: Redis is away')),
    };
    assert.deepEqual(await run(away), { acted: false, seen: [`refuse: ${TRY_AGAIN_TEXT}`] });
    const broken: SubmittedViews = { first: () => Promise.reject(new Error('a bug')) };
    await assert.rejects(run(broken), /a bug/);
  });
});
