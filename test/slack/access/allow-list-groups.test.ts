import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { webApi } from '@slack/bolt';
import { pino } from 'pino';
import { createGroupMembers } from '../../../src/slack/access/allow-list-groups.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack/index.js';
import { silentLogger } from '../../support/fake-slack/slack-clients.js';
import { captureLog } from '../../support/log-capture.js';
import { waitFor } from '../../support/wait.js';

function capture() {
  const { log, records: lines } = captureLog('warn');
  return { log, lines };
}

describe('createGroupMembers', () => {
  let slack: FakeSlack;
  let client: webApi.WebClient;
  const stops: (() => void)[] = [];
  beforeEach(async () => {
    slack = await startFakeSlack();
    client = new webApi.WebClient(slack.botToken, {
      slackApiUrl: slack.apiUrl,
      logger: silentLogger,
      retryConfig: { retries: 0 },
    });
    slack.addUserGroup({ id: 'S0DEVS001', users: ['U0ALICE01'] });
    slack.addUserGroup({ id: 'S0OPS0001', users: ['U0BOB0001'] });
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) stop();
    await slack.close();
  });
  const fetches = () => slack.calls.filter((c) => c.method === 'usergroups.users.list').length;

  test('start reads every group', async () => {
    const groups = createGroupMembers({
      client,
      groups: ['S0DEVS001', 'S0OPS0001'],
      log: pino({ level: 'silent' }),
    });
    stops.push(() => groups.stop());
    await groups.start();
    assert.deepEqual([...(groups.current().get('S0DEVS001') ?? [])], ['U0ALICE01']);
    assert.deepEqual([...(groups.current().get('S0OPS0001') ?? [])], ['U0BOB0001']);
  });

  test('a miss refreshes at most once per interval', async () => {
    let clock = 1_000_000;
    const groups = createGroupMembers({
      client,
      groups: ['S0DEVS001'],
      log: pino({ level: 'silent' }),
      missRefreshMs: 60_000,
      now: () => clock,
    });
    stops.push(() => groups.stop());
    await groups.start();
    slack.addUserGroup({ id: 'S0DEVS001', users: ['U0ALICE01', 'U0CAROL01'] });
    const before = fetches();
    clock += 30_000;
    await groups.refreshOnMiss(5000);
    assert.equal(fetches(), before, 'too soon after the last fetch');
    assert.equal(groups.current().get('S0DEVS001')?.has('U0CAROL01'), false);
    clock += 30_000;
    await groups.refreshOnMiss(5000);
    assert.equal(fetches(), before + 1);
    assert.equal(groups.current().get('S0DEVS001')?.has('U0CAROL01'), true);
  });

  test('members are fetched again every refreshMs', async () => {
    const groups = createGroupMembers({
      client,
      groups: ['S0DEVS001'],
      log: pino({ level: 'silent' }),
      refreshMs: 50,
    });
    stops.push(() => groups.stop());
    await groups.start();
    slack.addUserGroup({ id: 'S0DEVS001', users: ['U0BOB0001'] });
    await waitFor(
      () => groups.current().get('S0DEVS001')?.has('U0BOB0001'),
      'the change picked up by the periodic refresh',
    );
    assert.equal(groups.current().get('S0DEVS001')?.has('U0ALICE01'), false);
  });

  test('a Slack error keeps the last known members and logs a warning', async () => {
    const { log, lines } = capture();
    let clock = 0;
    const groups = createGroupMembers({
      client,
      groups: ['S0DEVS001'],
      log,
      missRefreshMs: 10,
      now: () => clock,
    });
    stops.push(() => groups.stop());
    await groups.start();
    slack.addUserGroup({ id: 'S0DEVS001', users: [] });
    slack.failNext('usergroups.users.list', { error: 'internal_error' });
    clock += 100;
    await groups.refreshOnMiss(5000);
    assert.deepEqual([...(groups.current().get('S0DEVS001') ?? [])], ['U0ALICE01']);
    const warning = lines.find((l) => l.group === 'S0DEVS001');
    assert.ok(warning);
    assert.equal(warning.level, 40);
    assert.equal(warning.code, 'internal_error');
    assert.match(warning.msg, /keeping the last known ones/);
  });

  test('an unknown group is reported with how to fix the ID', async () => {
    const { log, lines } = capture();
    const groups = createGroupMembers({ client, groups: ['S0NOSUCH1'], log });
    stops.push(() => groups.stop());
    await groups.start();
    assert.equal(groups.current().has('S0NOSUCH1'), false);
    assert.match(lines[0]?.msg ?? '', /no such group: check the ID/i);
  });

  test('a refresh that hangs is waited for at most waitMs', async () => {
    // A Web API that accepts requests and never answers them.
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const hanging = new webApi.WebClient(slack.botToken, {
      slackApiUrl: `http://127.0.0.1:${port}/api/`,
      logger: silentLogger,
      retryConfig: { retries: 0 },
    });
    const groups = createGroupMembers({
      client: hanging,
      groups: ['S0DEVS001'],
      log: pino({ level: 'silent' }),
    });
    stops.push(() => groups.stop());
    try {
      await groups.refreshOnMiss(50);
      assert.equal(groups.current().has('S0DEVS001'), false, 'nothing known yet, nobody let in');
    } finally {
      groups.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
