// `doctor`, once its checks pass, has the running relay show again at once the batches Slack
// refused for good: it finds the relay's pid in the state-folder lock and sends it SIGUSR2.
// Both are real processes here, so the whole path is used: lock, pid, signal, handler.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { readStoredRecords } from '../../src/store/read-stored-records.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { CHANNEL } from '../support/relay-harness.js';
import { type RelayProcess, spawnRelay, spawnRelayFor } from '../support/spawn-relay.js';
import { makeTempDir, sampleBatch, writeQuestionFile } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

describe('doctor and a running relay', () => {
  let slack: FakeSlack;
  let root: string;
  let cleanup: () => Promise<void>;
  let relay: RelayProcess | undefined;
  let doctor: RelayProcess | undefined;

  beforeEach(async () => {
    slack = await startFakeSlack();
    ({ dir: root, cleanup } = await makeTempDir('o7-doctor-relay-'));
    await mkdir(path.join(root, 'runs'), { recursive: true });
  });

  afterEach(async () => {
    await doctor?.kill();
    await relay?.kill();
    relay = undefined;
    doctor = undefined;
    await slack.close();
    await cleanup();
  });

  test('doctor finds the relay through its lock and has it show a refused batch again at once', async () => {
    const run = path.join(root, 'runs', 'run-refused');
    const stateDir = path.join(root, 'state');
    const isOurs = (args: Record<string, unknown>) =>
      Array.isArray(args.blocks) && JSON.stringify(args.blocks).includes('run-refused');
    const lift = slack.refuse('chat.postMessage', 'msg_too_long', isOurs);
    relay = spawnRelayFor(slack, root, { logLevel: 'info' });
    await relay.waitForLog('relay ready');

    await writeQuestionFile(run, 1, sampleBatch(1));
    await waitFor(
      async () => (await readStoredRecords(stateDir)).some((r) => r.undeliverable),
      'the refusal stored',
    );
    const posts = () =>
      slack.calls.filter((c) => c.method === 'chat.postMessage' && isOurs(c.args)).length;
    const tried = posts();

    // Slack would take it now; left alone, the relay would wait an hour to try again
    lift();
    doctor = spawnRelay(['doctor'], {
      cwd: root,
      env: {
        SLACK_BOT_TOKEN: slack.botToken,
        SLACK_APP_TOKEN: slack.appToken,
        SLACK_CHANNEL_ID: CHANNEL,
        SLACK_API_URL: slack.apiUrl,
        RELAY_WATCH: path.join(root, 'runs'),
        RELAY_STATE_DIR: stateDir,
      },
    });
    const { code } = await doctor.exited;
    assert.equal(code, 0, doctor.stdout() + doctor.stderr());
    assert.match(doctor.stdout(), /note {2}run run-refused, batch 1: Slack refused to show it/);
    assert.ok(
      doctor
        .stdout()
        .includes(`ok    told the running relay (pid ${relay.child.pid}) to show them again now`),
      doctor.stdout(),
    );

    await relay.waitForLog('showing the batches Slack refused again');
    const shown = await waitFor(
      () => slack.messages(CHANNEL).find((m) => JSON.stringify(m.blocks).includes('run-refused')),
      'the batch posted',
    );
    assert.ok(shown);
    assert.equal(posts(), tried + 1, 'tried once more, and taken');
    assert.equal(relay.child.exitCode, null, 'the relay still runs');
    await waitFor(
      async () => (await readStoredRecords(stateDir)).every((r) => !r.undeliverable),
      'the refusal cleared',
    );
  });
});
