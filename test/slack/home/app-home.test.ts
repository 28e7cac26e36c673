import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { webApi } from '@slack/bolt';
import { pino } from 'pino';
import type { BatchRecord } from '../../../src/core/batch/batch-record.js';
import { type AppHome, createAppHome } from '../../../src/slack/home/app-home.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack/index.js';
import { silentLogger } from '../../support/fake-slack/slack-clients.js';
import { makeRecord } from '../../support/make-record.js';
import { waitFor } from '../../support/wait.js';

const ALICE = 'U0ALICE01';
const BOB = 'U0BOB0001';

describe('createAppHome', () => {
  let slack: FakeSlack;
  let home: AppHome;
  let records: BatchRecord[];
  beforeEach(async () => {
    slack = await startFakeSlack();
    records = [makeRecord('/runs/run-a', 1, { createdAt: new Date().toISOString() })];
    const client = new webApi.WebClient(slack.botToken, {
      slackApiUrl: slack.apiUrl,
      logger: silentLogger,
      retryConfig: { retries: 0 },
    });
    home = createAppHome({
      client,
      store: { all: () => records },
      log: pino({ level: 'silent' }),
      refreshDelayMs: 30,
    });
  });
  afterEach(async () => {
    await home.close();
    await slack.close();
  });
  const publishes = (user?: string) =>
    slack.calls.filter(
      (c) => c.method === 'views.publish' && (user === undefined || c.args.user_id === user),
    ).length;
  const homeText = (user: string) => JSON.stringify(slack.homeView(user)?.blocks ?? []);

  test('opening publishes for that person only', async () => {
    await home.opened(ALICE);
    assert.equal(publishes(ALICE), 1);
    assert.equal(publishes(BOB), 0);
    assert.match(homeText(ALICE), /run-a/);
  });

  test('refreshes are for people who opened the tab, and changes close together merge into one', async () => {
    home.refreshSoon();
    await home.opened(ALICE);
    await home.opened(BOB);
    const before = publishes();
    records = [...records, makeRecord('/runs/run-b', 1, { createdAt: new Date().toISOString() })];
    for (let i = 0; i < 5; i += 1) home.refreshSoon();
    await waitFor(
      () => homeText(ALICE).includes('run-b') && homeText(BOB).includes('run-b'),
      'both tabs refreshed',
    );
    assert.equal(publishes(), before + 2, 'one publish per person for five changes');
  });

  test('a failed publish for one person is logged and the others still get theirs', async () => {
    await home.opened(ALICE);
    await home.opened(BOB);
    slack.failNext('views.publish', { error: 'internal_error' });
    records = [makeRecord('/runs/run-c', 1, { createdAt: new Date().toISOString() })];
    home.refreshSoon();
    await waitFor(() => homeText(BOB).includes('run-c'), "BOB's refresh");
    assert.doesNotMatch(homeText(ALICE), /run-c/, "ALICE's publish failed");
    home.refreshSoon();
    await waitFor(
      () => homeText(ALICE).includes('run-c'),
      'the next change brings ALICE up to date',
    );
  });

  test('after close nothing is published', async () => {
    await home.opened(ALICE);
    await home.close();
    const before = publishes();
    home.refreshSoon();
    await home.opened(BOB);
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(publishes(), before);
  });

  test('a change after a quiet spell is shown soon, not after the least time between refreshes', async () => {
    const slow = createAppHome({
      client: new webApi.WebClient(slack.botToken, {
        slackApiUrl: slack.apiUrl,
        logger: silentLogger,
        retryConfig: { retries: 0 },
      }),
      store: { all: () => records },
      log: pino({ level: 'silent' }),
      refreshDelayMs: 10 * 60_000,
    });
    try {
      await slow.opened(ALICE);
      records = [makeRecord('/runs/run-d', 1, { createdAt: new Date().toISOString() })];
      slow.refreshSoon();
      // with the ten minutes waited first, this would time out
      await waitFor(() => homeText(ALICE).includes('run-d'), 'the refresh');
    } finally {
      await slow.close();
    }
  });
});
