import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FakeSlack } from '../support/fake-slack/index.js';
import {
  noStack,
  relayProcessPerTest,
  spawnRelayFor,
  startUntilExit,
} from '../support/spawn-relay.js';

describe('starting with RELAY_ESCALATE_TO', () => {
  const fx = relayProcessPerTest('o7-start-escalation-');

  const escalation = (to: string) => ({ RELAY_ESCALATE_AFTER: '1h', RELAY_ESCALATE_TO: to });

  const unusable: [string, string, (slack: FakeSlack) => void, RegExp][] = [
    ['an unknown user', 'U0NOBODY1', () => {}, /Slack knows no user with that ID/],
    [
      'a deactivated user',
      'U0GONE001',
      (s) => s.addUser({ id: 'U0GONE001', name: 'gone', deleted: true }),
      /a deactivated account/,
    ],
    [
      'a bot',
      'U0ROBOT01',
      (s) => s.addUser({ id: 'U0ROBOT01', name: 'robot', isBot: true }),
      /a bot or app/,
    ],
    ['an unknown user group', 'S0NOGROUP', () => {}, /no user group with that ID/],
    [
      'a disabled user group',
      'S0OLDTEAM',
      (s) => s.addUserGroup({ id: 'S0OLDTEAM', users: [], handle: 'old', disabled: true }),
      /a disabled user group/,
    ],
  ];
  for (const [what, to, setup, said] of unusable) {
    test(`RELAY_ESCALATE_TO naming ${what} ends the start with exit 2 and says why`, async () => {
      setup(fx.slack);
      const { code, err } = await startUntilExit(fx, escalation(to));
      assert.equal(code, 2, err);
      assert.ok(err.startsWith(`The relay cannot start: RELAY_ESCALATE_TO is ${to}, `), err);
      assert.match(err, said);
      noStack(err);
      assert.equal(fx.slack.connectionsOpened, 0, 'the relay never connected');
    });
  }

  test('RELAY_ESCALATE_TO that Slack cannot look up right now is no configuration error', async () => {
    fx.slack.addUserGroup({ id: 'S0ONCALL1', users: ['U0BOB0001'], handle: 'oncall' });
    fx.slack.failNext('usergroups.list', { status: 503 });
    fx.relay = spawnRelayFor(fx.slack, fx.root, { logLevel: 'info', env: escalation('S0ONCALL1') });
    await fx.relay.waitForLog('relay ready');
    const warned = fx.relay.logs.find((l) =>
      String(l.msg).startsWith('could not check RELAY_ESCALATE_TO'),
    );
    assert.equal(warned?.reason, 'HTTP 503 from Slack');
  });

  test('RELAY_ESCALATE_TO naming an active person or an enabled group starts', async () => {
    fx.slack.addUserGroup({ id: 'S0ONCALL1', users: ['U0BOB0001'], handle: 'oncall' });
    for (const to of ['U0BOB0001', 'S0ONCALL1']) {
      fx.relay = spawnRelayFor(fx.slack, fx.root, { logLevel: 'info', env: escalation(to) });
      await fx.relay.waitForLog('relay ready');
      assert.ok(!fx.relay.logs.some((l) => String(l.msg).includes('RELAY_ESCALATE_TO')));
      await fx.relay.kill('SIGTERM');
    }
  });
});
