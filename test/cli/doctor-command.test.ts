import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { type DoctorDeps, runDoctor } from '../../src/cli/doctor-command.js';
import type { Config } from '../../src/config/config-schema.js';
import { readStoredRecords } from '../../src/store/read-stored-records.js';
import {
  type FakeSlack,
  MANIFEST_BOT_SCOPES,
  startFakeSlack,
} from '../support/fake-slack/index.js';
import { makeRecord } from '../support/make-record.js';
import {
  allConnected,
  configFor,
  freePort,
  type Harness,
  startRelayHarness,
} from '../support/relay-harness.js';
import { makeTempDir } from '../support/temp-dir.js';

/** Runs doctor in this process and returns its exit code and output. */
async function doctor(
  config: Config,
  deps: Partial<DoctorDeps> = {},
): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await runDoctor(
    config,
    { out: (line) => lines.push(line) },
    { readRecords: readStoredRecords, retryRefused: async () => undefined, ...deps },
  );
  return { code, out: lines.join('\n') };
}

describe('doctor against the stand-in', () => {
  let slack: FakeSlack;
  let config: Config;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    slack = await startFakeSlack();
    const temp = await makeTempDir('o7-doctor-');
    cleanup = temp.cleanup;
    config = configFor(slack, temp.dir, 'socket');
  });
  afterEach(async () => {
    await slack.close();
    await cleanup();
  });

  test('a healthy setup passes every check and opens no Socket Mode connection', async () => {
    const { code, out } = await doctor(config);
    assert.equal(code, 0, out);
    assert.match(
      out,
      /^ok {4}SLACK_BOT_TOKEN works \(workspace Fake o7 Workspace, bot user o7-relay\)$/m,
    );
    assert.match(out, /^ok {4}the bot has the 7 scopes the relay uses$/m);
    assert.match(out, /^ok {4}channel #o7-relay \(C0RELAY01\) exists and the bot is in it$/m);
    assert.match(out, /^ok {4}SLACK_APP_TOKEN works: Socket Mode can connect/m);
    assert.match(out, /All checks passed\.$/);
    assert.equal(slack.calls.filter((c) => c.method === 'apps.connections.open').length, 1);
    assert.equal(slack.connectionsOpened, 0, 'doctor opened no WebSocket');
  });

  test('scopes the relay uses but the app lacks fail with how to fix them; extra ones are named', async () => {
    const withoutFiles = MANIFEST_BOT_SCOPES.filter((s) => s !== 'files:write');
    slack.setBotScopes([...withoutFiles, 'channels:history']);
    const lacking = await doctor(config);
    assert.equal(lacking.code, 1);
    assert.match(
      lacking.out,
      /^FAIL {2}the bot lacks scopes the relay uses: files:write\n {6}fix: paste manifest\.yml/m,
    );
    assert.match(lacking.out, /\n1 check failed\.$/);

    slack.setBotScopes([...MANIFEST_BOT_SCOPES, 'channels:history', 'groups:history']);
    const extra = await doctor(config);
    assert.equal(extra.code, 0, extra.out);
    assert.match(
      extra.out,
      /^ok {4}the bot has the 7 scopes the relay uses; also granted, not needed \(remove them\): channels:history, groups:history$/m,
    );
  });

  test('"Slack cannot be reached" and "token refused" are told apart', async () => {
    const port = await freePort();
    const down = await doctor({
      ...config,
      slack: { ...config.slack, apiUrl: `http://127.0.0.1:${port}/api/` },
    });
    assert.equal(down.code, 1);
    assert.match(
      down.out,
      /^FAIL {2}Slack cannot be reached at http:\/\/127\.0\.0\.1:\d+\/api\/ \(ECONNREFUSED\); nothing else could be checked\n {6}fix: check the network, proxies and SLACK_API_URL/m,
    );
    assert.doesNotMatch(down.out, /refused SLACK_/);

    const badBot = await doctor({ ...config, slack: { ...config.slack, botToken: 'xoxb-1-2-no' } });
    assert.equal(badBot.code, 1);
    assert.match(
      badBot.out,
      /^FAIL {2}Slack refused SLACK_BOT_TOKEN \(invalid_auth\)\n {6}fix: SLACK_BOT_TOKEN is wrong, revoked/m,
    );
    assert.doesNotMatch(badBot.out, /cannot be reached/);

    const badApp = await doctor({
      ...config,
      slack: { ...config.slack, mode: 'socket', appToken: 'xapp-1-A1-2-no' },
    });
    assert.equal(badApp.code, 1);
    assert.match(
      badApp.out,
      /^FAIL {2}Slack refused SLACK_APP_TOKEN \(invalid_auth\)\n {6}fix: SLACK_APP_TOKEN is wrong, .*App-Level Tokens/m,
    );
    assert.match(badApp.out, /^ok {4}SLACK_BOT_TOKEN works/m);
  });

  test('every channel is checked, each with the folders it is for; one the bot is not in fails alone', async () => {
    slack.addChannel({ id: 'C0BETA001', name: 'beta', members: ['U0ALICE01'] });
    slack.addChannel({ id: 'C0GAMMA01', name: 'gamma', members: [], botIsMember: false });
    const routed: Config = {
      ...config,
      watch: [
        { path: '/srv/alpha/runs', channel: 'C0RELAY01' },
        { path: '/srv/beta/runs', channel: 'C0BETA001' },
        { path: '/srv/gamma/runs', channel: 'C0GAMMA01' },
        { path: '/srv/more-beta/runs', channel: 'C0BETA001' },
        { path: '/srv/nowhere/runs', channel: 'C0MISSING' },
      ],
    };
    const { code, out } = await doctor(routed);
    assert.equal(code, 1, out);
    assert.match(
      out,
      /^ok {4}channel #o7-relay \(C0RELAY01\) exists and the bot is in it \(for \/srv\/alpha\/runs, ask\)$/m,
    );
    assert.match(
      out,
      /^ok {4}channel #beta \(C0BETA001\) exists and the bot is in it \(for \/srv\/beta\/runs, \/srv\/more-beta\/runs\)$/m,
    );
    assert.match(
      out,
      /^FAIL {2}the bot is not in #gamma \(C0GAMMA01\) \(for \/srv\/gamma\/runs\)\n {6}fix: in Slack, open #gamma and type \/invite @<your app's bot name>$/m,
    );
    assert.match(
      out,
      /^FAIL {2}cannot see channel C0MISSING \(for \/srv\/nowhere\/runs\): channel_not_found\n {6}fix: /m,
    );
    assert.match(out, /^2 checks failed\.$/m);
    // each channel once
    const looked = slack.calls
      .filter((c) => c.method === 'conversations.info')
      .map((c) => c.args.channel);
    assert.deepEqual(looked, ['C0RELAY01', 'C0BETA001', 'C0GAMMA01', 'C0MISSING']);
  });

  test('with several channels, a batch Slack refused names its channel', async () => {
    slack.addChannel({ id: 'C0BETA001', name: 'beta', members: ['U0ALICE01'] });
    const routed: Config = {
      ...config,
      watch: [
        { path: '/srv/alpha/runs', channel: 'C0RELAY01' },
        { path: '/srv/beta/runs', channel: 'C0BETA001' },
      ],
    };
    const refusal = {
      code: 'msg_too_long',
      fix: 'shorten it',
      at: '2026-12-01T10:00:00.000Z',
      told: true,
    };
    const records = [
      // never shown: the channel its folder is routed to
      makeRecord('/srv/beta/runs/r1', 1, { undeliverable: refusal }),
      // shown before (its continuation was refused): the channel it is in
      makeRecord('/srv/alpha/runs/r2', 2, {
        undeliverable: refusal,
        presentation: { channel: 'C0BETA001', ts: '1.000100' },
      }),
    ];
    const { out } = await doctor(routed, { readRecords: async () => records });
    assert.match(
      out,
      /^note {2}run r1, batch 1 in C0BETA001: Slack refused to show it \(msg_too_long\)/m,
    );
    assert.match(out, /^note {2}run r2, batch 2 in C0BETA001: Slack refused to show it/m);
    // with one channel, nothing is added
    const single = await doctor(config, { readRecords: async () => records.slice(0, 1) });
    assert.match(single.out, /^note {2}run r1, batch 1: Slack refused to show it/m);
  });

  test('RELAY_ESCALATE_TO is checked when set', async () => {
    slack.addUser({ id: 'U0GONE001', name: 'gone', deleted: true });
    const escalate = (to: string): Config => ({
      ...config,
      reminders: { escalate: { afterMs: 60_000, to } },
    });
    const good = await doctor(escalate('U0BOB0001'));
    assert.equal(good.code, 0, good.out);
    assert.match(
      good.out,
      /^ok {4}RELAY_ESCALATE_TO is user @bob, who can take escalated batches$/m,
    );

    const gone = await doctor(escalate('U0GONE001'));
    assert.equal(gone.code, 1);
    assert.match(
      gone.out,
      /^FAIL {2}RELAY_ESCALATE_TO is U0GONE001, a deactivated account, which can never answer\n {6}fix: give someone active$/m,
    );
  });
});

describe('doctor beside a running relay', () => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
  });

  test("leaves the relay's connections the only Socket Mode ones", async () => {
    h = await startRelayHarness('socket');
    const held = await allConnected(h.slack);
    assert.equal(h.slack.connectionsOpened, held);
    const { code, out } = await doctor(h.config);
    assert.equal(code, 0, out);
    assert.equal(h.slack.connectionsOpened, held, 'doctor connected nothing');
    assert.equal(h.slack.connectionCount, held);
  });
});
